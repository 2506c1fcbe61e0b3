import {
  answerByKey,
  questionKeys,
  tabalugaDocuments,
  tabalugaOfferPdf,
  TABALUGA_FORM_ID,
} from '../../domain/questionnaire.ts';
import { Island } from '../../islands/island.tsx';
import { publicPages } from '../../config/page-meta.ts';
import { PageWithIntro } from '../shared/page-with-intro.tsx';
import { builtQuestionnaire } from './built-questionnaires.ts';
import { QuestionnaireFlow } from './questionnaire-flow.tsx';
import { DownloadLink } from './thank-you-step.tsx';

export function TabalugaPage() {
  return (
    <PageWithIntro
      meta={publicPages.tabaluga}
      title="Tabaluga – Vorsorge für Ihre Kinder"
      intro="Beantworten Sie ein paar kurze Fragen, und wir erstellen Ihnen ein kostenloses Angebot für die Zukunft Ihrer Kinder."
    >
      {/* The first question is in the HTML; the flow runs right after the first paint. */}
      <Island name="tabaluga">
        <TabalugaQuestionnaire />
      </Island>
    </PageWithIntro>
  );
}

/** The questionnaire of the page, its island (src/islands.tsx). */
export function TabalugaQuestionnaire() {
  return (
    <QuestionnaireFlow
      formId={TABALUGA_FORM_ID}
      built={builtQuestionnaire(TABALUGA_FORM_ID)}
      renderDownloads={({ questions, answers, documentUrl }) => (
        <div className="flex flex-wrap gap-3">
          <DownloadLink href={tabalugaDocuments.flyer}>Flyer ansehen</DownloadLink>
          {/* The agent's uploaded offer wins; else the sample for the chosen amount. */}
          <DownloadLink
            href={
              documentUrl ??
              tabalugaOfferPdf(answerByKey(questions, answers, questionKeys.offerAmount))
            }
          >
            Ihr Musterangebot ansehen
          </DownloadLink>
        </div>
      )}
    />
  );
}
