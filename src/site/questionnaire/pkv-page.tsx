import { PKV_FORM_ID, pkvDocuments } from '../../domain/questionnaire.ts';
import { PageHeader } from '../../ui/page-header';
import { publicPages } from '../../config/page-meta';
import { usePageMeta } from '../../ui/use-page-meta';
import { QuestionnaireFlow } from './questionnaire-flow';
import { DownloadLink } from './thank-you-step';

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
