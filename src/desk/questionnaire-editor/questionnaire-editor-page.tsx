import { useParams } from 'react-router-dom';
import { deskQuestionnairePath } from '../../domain/routes.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { usePageMeta } from '../../ui/use-page-meta.ts';

export function QuestionnaireEditorPage() {
  // The spec uses the questionnaire's title as its id in this route.
  const { id = '' } = useParams();
  usePageMeta({
    title: `Fragebogen „${id}“ bearbeiten – Survey Desk`,
    description: `Fragebogen „${id}“ in Survey Desk bearbeiten: Titel, Beschreibung und Bild pflegen, Fragen und Antwortoptionen anlegen, ändern und ordnen.`,
    path: deskQuestionnairePath(id),
  });
  return (
    <div className="py-8">
      <PageHeader title="Fragebogen bearbeiten">
        <p>{id}</p>
      </PageHeader>
    </div>
  );
}
