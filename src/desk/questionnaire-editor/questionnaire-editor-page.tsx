import { Link, useParams } from 'react-router-dom';
import { useFormByTitle } from '../api/forms.ts';
import { deskPaths, deskQuestionnairePath } from '../../domain/routes.ts';
import { LoadError } from '../../ui/load-error.tsx';
import { PageLoading } from '../../ui/page-loading.tsx';
import { DeskScreen } from '../shared/desk-screen.tsx';
import { FormDetailsPanel } from './form-details-panel.tsx';
import { QuestionsPanel } from './question-panel.tsx';

export const formNotFoundMessage = 'Diesen Fragebogen gibt es nicht.';

function BackToList() {
  return (
    <Link
      to={deskPaths.questionnaires}
      className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4"
    >
      Zurück zur Übersicht der Fragebögen
    </Link>
  );
}

function Editor({ title }: { title: string }) {
  const form = useFormByTitle(title);
  if (form.isPending) return <PageLoading />;
  if (form.isError) {
    return (
      <LoadError onRetry={form.refetch}>Der Fragebogen konnte nicht geladen werden.</LoadError>
    );
  }
  if (!form.data) {
    return (
      <div className="rounded-lg bg-white p-6 shadow">
        <p className="mb-3 text-lg text-slate-900">{formNotFoundMessage}</p>
        <BackToList />
      </div>
    );
  }
  return (
    <>
      <div className="mb-4">
        <BackToList />
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        {/* Keyed by id: a rename moves the address but keeps this form's state and messages. */}
        <FormDetailsPanel key={form.data.id} form={form.data} />
        <QuestionsPanel form={{ id: form.data.id, title: form.data.title }} />
      </div>
    </>
  );
}

export function QuestionnaireEditorPage() {
  // The spec uses the questionnaire's title as its id in this route; react-router decodes it.
  const { id: title = '' } = useParams();
  return (
    <DeskScreen
      heading="Fragebogen bearbeiten"
      meta={{
        title: `Fragebogen „${title}“ bearbeiten – Survey Desk`,
        description: `Fragebogen „${title}“ in Survey Desk bearbeiten: Titel, Beschreibung und Bild pflegen, Fragen und Antwortoptionen anlegen, ändern und ordnen.`,
        path: deskQuestionnairePath(title),
      }}
    >
      <Editor title={title} />
    </DeskScreen>
  );
}
