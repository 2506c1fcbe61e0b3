import { PageHeader } from '../../ui/page-header';

export function PrivacyPage() {
  return (
    <div className="py-8">
      <PageHeader title="Datenschutzerklärung" />
    </div>
  );
}
