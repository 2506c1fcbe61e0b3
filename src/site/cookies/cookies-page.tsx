import { PageHeader } from '../../ui/page-header';

export function CookiesPage() {
  return (
    <div className="py-8">
      <PageHeader title="Cookie-Richtlinie" />
    </div>
  );
}
