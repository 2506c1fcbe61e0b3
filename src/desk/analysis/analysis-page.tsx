import { deskPaths } from '../../domain/routes.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { usePageMeta } from '../../ui/use-page-meta.ts';

export function AnalysisPage() {
  usePageMeta({
    title: 'Analyse – Survey Desk',
    description:
      'Auswertungen Ihrer Fragebögen in Survey Desk: Sobald genügend Antworten vorliegen, erscheinen hier die Analysen; frühere Auswertungen über den Support.',
    path: deskPaths.analysis,
  });
  return (
    <div className="py-8">
      <PageHeader title="Analyse" />
    </div>
  );
}
