import { PageHeader } from '../../ui/page-header';

export function CustomersPage() {
  return (
    <div className="py-8">
      <PageHeader title="Kunden Daten" />
    </div>
  );
}
