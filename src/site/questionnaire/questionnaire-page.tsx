import { useParams } from 'react-router-dom';
import { PageHeader } from '../../ui/page-header';
import { usePageMeta } from '../../ui/use-page-meta';
import { Alert } from '../../ui/alert';
import { QuestionnaireFlow } from './questionnaire-flow';

/** Public route for questionnaires created in Survey Desk (DESIGN 9), beside the two fixed ones. */
export function QuestionnairePage() {
  const formId = Number(useParams().id);
  const valid = Number.isInteger(formId) && formId > 0;
  usePageMeta({
    title: valid ? `Fragebogen ${formId}` : 'Fragebogen nicht gefunden',
    description:
      'Beantworten Sie ein paar kurze Fragen zu Ihrer Situation, und wir melden uns mit einem kostenlosen, unverbindlichen Versicherungsangebot bei Ihnen.',
    path: `/fragebogen/${encodeURIComponent(useParams().id ?? '')}`,
  });
  return (
    <div className="py-8">
      <PageHeader title="Fragebogen">
        <p>
          Beantworten Sie ein paar kurze Fragen, und wir melden uns mit einem Angebot bei Ihnen.
        </p>
      </PageHeader>
      {valid ? (
        <QuestionnaireFlow formId={formId} />
      ) : (
        <Alert tone="error">Diesen Fragebogen gibt es nicht.</Alert>
      )}
    </div>
  );
}
