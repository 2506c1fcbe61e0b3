import {
  tabalugaDocuments,
  tabalugaOfferPdf,
  TABALUGA_FORM_ID,
  answerAt,
} from '../../domain/questionnaire.ts';
import { publicPages } from '../../config/page-meta.ts';
import { PageWithIntro } from '../shared/page-with-intro.tsx';
import { QuestionnaireFlow } from './questionnaire-flow.tsx';
import { DownloadLink } from './thank-you-step.tsx';

export function TabalugaPage() {
  return (
    <PageWithIntro
      meta={publicPages.tabaluga}
      title="Tabaluga – Vorsorge für Ihre Kinder"
      intro="Beantworten Sie drei kurze Fragen, und wir erstellen Ihnen ein kostenloses Angebot für die Zukunft Ihrer Kinder."
    >
      <QuestionnaireFlow
        formId={TABALUGA_FORM_ID}
        renderDownloads={({ questions, answers }) => (
          <div className="flex flex-wrap gap-3">
            <DownloadLink href={tabalugaDocuments.flyer}>Flyer ansehen</DownloadLink>
            <DownloadLink href={tabalugaOfferPdf(answerAt(questions, answers, 2))}>
              Ihr Musterangebot ansehen
            </DownloadLink>
          </div>
        )}
      />
    </PageWithIntro>
  );
}
