import { PageHeader } from '../../ui/page-header';

export function AnalysisPage() {
  return (
    <div className="py-8">
      <PageHeader title="Analyse" />
    </div>
  );
}
