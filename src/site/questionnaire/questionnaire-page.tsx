import { useParams } from 'react-router-dom';
import { PageHeader } from '../../ui/page-header.tsx';
import { questionnairePage } from '../../config/page-meta.ts';
import { isFormIdText } from '../../domain/questionnaire.ts';
import { useNoindex } from '../../ui/use-noindex.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';
import { Alert } from '../../ui/alert.tsx';
import { QuestionnaireFlow } from './questionnaire-flow.tsx';

/** Public route for questionnaires created in Survey Desk (DESIGN 9), beside the two fixed ones. */
export function QuestionnairePage() {
  const id = useParams().id ?? '';
  const valid = isFormIdText(id);
  const formId = Number(id);
  usePageMeta(questionnairePage(id, valid));
  useNoindex(!valid);
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
