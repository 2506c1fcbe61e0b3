import { PKV_FORM_ID, pkvDocuments } from '../../domain/questionnaire.ts';
import { Island } from '../../islands/island.tsx';
import { publicPages } from '../../config/page-meta.ts';
import { PageWithIntro } from '../shared/page-with-intro.tsx';
import { builtQuestionnaire } from './built-questionnaires.ts';
import { QuestionnaireFlow } from './questionnaire-flow.tsx';
import { DownloadLink } from './thank-you-step.tsx';

export function PkvPage() {
  return (
    <PageWithIntro
      meta={publicPages.pkv}
      title="Private Krankenversicherung (PKV)"
      intro="Ein paar Fragen zu Ihrer Situation und Ihren Wünschen, danach erhalten Sie ein kostenloses, unverbindliches Angebot."
    >
      <Island name="pkv">
        <PkvQuestionnaire />
      </Island>
    </PageWithIntro>
  );
}

/** The questionnaire of the page, its island (src/islands.tsx). */
export function PkvQuestionnaire() {
  return (
    <QuestionnaireFlow
      formId={PKV_FORM_ID}
      built={builtQuestionnaire(PKV_FORM_ID)}
      renderDownloads={({ documentUrl }) => (
        <div className="flex flex-wrap gap-3">
          <DownloadLink href={pkvDocuments.info}>Informationen zur PKV</DownloadLink>
          <DownloadLink href={documentUrl ?? pkvDocuments.offer}>
            Angebot herunterladen
          </DownloadLink>
        </div>
      )}
    />
  );
}
