import {
  tabalugaDocuments,
  tabalugaOfferPdf,
  TABALUGA_FORM_ID,
  answerAt,
} from '../../domain/questionnaire.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { publicPages } from '../../config/page-meta.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';
import { QuestionnaireFlow } from './questionnaire-flow.tsx';
import { DownloadLink } from './thank-you-step.tsx';

export function TabalugaPage() {
  usePageMeta(publicPages.tabaluga);
  return (
    <div className="py-8">
      <PageHeader title="Tabaluga – Vorsorge für Ihre Kinder">
        <p>
          Beantworten Sie drei kurze Fragen, und wir erstellen Ihnen ein kostenloses Angebot für die
          Zukunft Ihrer Kinder.
        </p>
      </PageHeader>
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
    </div>
  );
}
