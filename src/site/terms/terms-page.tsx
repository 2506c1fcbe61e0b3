import { PageHeader } from '../../ui/page-header';

export function TermsPage() {
  return (
    <div className="py-8">
      <PageHeader title="Allgemeine Geschäftsbedingungen" />
    </div>
  );
}
