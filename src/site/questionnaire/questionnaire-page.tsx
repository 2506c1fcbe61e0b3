import { useParams } from 'react-router-dom';
import { questionnairePage } from '../../config/page-meta.ts';
import { isFormIdText } from '../../domain/questionnaire.ts';
import { useNoindex } from '../../ui/use-noindex.ts';
import { Alert } from '../../ui/alert.tsx';
import { PageWithIntro } from '../shared/page-with-intro.tsx';
import { QuestionnaireFlow } from './questionnaire-flow.tsx';
import { DownloadLink } from './thank-you-step.tsx';

/** Public route for questionnaires created in Survey Desk (DESIGN 9), beside the two fixed ones. */
export function QuestionnairePage() {
  const id = useParams().id ?? '';
  const valid = isFormIdText(id);
  const formId = Number(id);
  useNoindex(!valid);
  return (
    <PageWithIntro
      meta={questionnairePage(id, valid)}
      title="Fragebogen"
      intro="Beantworten Sie ein paar kurze Fragen, und wir melden uns mit einem Angebot bei Ihnen."
    >
      {valid ? (
        <QuestionnaireFlow
          formId={formId}
          renderDownloads={({ documentUrl }) =>
            documentUrl ? (
              <DownloadLink href={documentUrl}>Angebot herunterladen</DownloadLink>
            ) : null
          }
        />
      ) : (
        <Alert tone="error">Diesen Fragebogen gibt es nicht.</Alert>
      )}
    </PageWithIntro>
  );
}
