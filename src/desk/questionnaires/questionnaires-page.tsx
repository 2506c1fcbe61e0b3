import { useState } from 'react';
import { useFormList } from '../api/forms.ts';
import { deskPaths } from '../../domain/routes.ts';
import { LoadError } from '../../ui/load-error.tsx';
import { PageLoading } from '../../ui/page-loading.tsx';
import { DeskScreen } from '../shared/desk-screen.tsx';
import { AddQuestionnaireSidebar } from './add-questionnaire-sidebar.tsx';
import { QuestionnaireCard } from './questionnaire-card.tsx';

function AddCard({ onOpen }: { onOpen: () => void }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      className="flex min-h-64 w-full flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed border-slate-400 bg-white/60 p-6 text-lg font-semibold text-brand-800 hover:border-brand-700 hover:bg-brand-50"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-10">
        <path d="M10.75 4.75a.75.75 0 0 0-1.5 0v4.5h-4.5a.75.75 0 0 0 0 1.5h4.5v4.5a.75.75 0 0 0 1.5 0v-4.5h4.5a.75.75 0 0 0 0-1.5h-4.5v-4.5Z" />
      </svg>
      Hinzufügen
    </button>
  );
}

function QuestionnaireGrid() {
  const forms = useFormList();
  const [adding, setAdding] = useState(false);

  if (forms.isPending) return <PageLoading />;
  if (forms.isError) {
    return (
      <LoadError onRetry={forms.refetch}>Die Fragebögen konnten nicht geladen werden.</LoadError>
    );
  }

  return (
    <>
      {forms.data.length === 0 ? (
        <p className="mb-4 text-slate-700">
          Noch keine Fragebögen. Lege mit „Hinzufügen“ den ersten an.
        </p>
      ) : null}
      <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {forms.data.map((form) => (
          <li key={form.id}>
            <QuestionnaireCard form={form} />
          </li>
        ))}
        <li>
          <AddCard onOpen={() => setAdding(true)} />
        </li>
      </ul>
      <AddQuestionnaireSidebar
        open={adding}
        onClose={() => {
          setAdding(false);
          // The spec reloads the list when the sidebar closes.
          void forms.refetch();
        }}
      />
    </>
  );
}

export function QuestionnairesPage() {
  return (
    <DeskScreen
      heading="Fragebogen"
      meta={{
        title: 'Fragebogen – Survey Desk',
        description:
          'Alle Fragebögen der Agentur im Überblick: Titel, Beschreibung und Erstelldatum ansehen, neue Fragebögen anlegen und bestehende zum Bearbeiten öffnen.',
        path: deskPaths.questionnaires,
      }}
    >
      <QuestionnaireGrid />
    </DeskScreen>
  );
}
