import { PageHeader } from '../../ui/page-header';

export function DashboardPage() {
  return (
    <div className="py-8">
      <PageHeader title="Willkommen" />
    </div>
  );
}
