import { PageHeader } from '../../ui/page-header';

export function SupportPage() {
  return (
    <div className="py-8">
      <PageHeader title="Support & Dokumentation" />
    </div>
  );
}
