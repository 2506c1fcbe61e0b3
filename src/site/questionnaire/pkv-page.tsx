import { PKV_FORM_ID, pkvDocuments } from '../../domain/questionnaire.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { publicPages } from '../../config/page-meta.ts';
import { usePageMeta } from '../../ui/use-page-meta.ts';
import { QuestionnaireFlow } from './questionnaire-flow.tsx';
import { DownloadLink } from './thank-you-step.tsx';

export function PkvPage() {
  usePageMeta(publicPages.pkv);
  return (
    <div className="py-8">
      <PageHeader title="Private Krankenversicherung (PKV)">
        <p>
          Ein paar Fragen zu Ihrer Situation und Ihren Wünschen, danach erhalten Sie ein
          kostenloses, unverbindliches Angebot.
        </p>
      </PageHeader>
      <QuestionnaireFlow
        formId={PKV_FORM_ID}
        renderDownloads={() => (
          <div className="flex flex-wrap gap-3">
            <DownloadLink href={pkvDocuments.info}>Informationen zur PKV</DownloadLink>
            <DownloadLink href={pkvDocuments.offer}>Angebot herunterladen</DownloadLink>
          </div>
        )}
      />
    </div>
  );
}
