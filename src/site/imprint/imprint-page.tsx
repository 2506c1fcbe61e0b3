import { PageHeader } from '../../ui/page-header';

export function ImprintPage() {
  return (
    <div className="py-8">
      <PageHeader title="Impressum" />
    </div>
  );
}
