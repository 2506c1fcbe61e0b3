import { PageHeader } from '../../ui/page-header';

export function SettingsPage() {
  return (
    <div className="py-8">
      <PageHeader title="Einstellungen" />
    </div>
  );
}
