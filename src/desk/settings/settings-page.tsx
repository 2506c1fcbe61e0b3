import { deskPaths } from '../../domain/routes.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { usePageMeta } from '../../ui/use-page-meta.ts';

export function SettingsPage() {
  usePageMeta({
    title: 'Einstellungen – Survey Desk',
    description:
      'Kontoeinstellungen in Survey Desk: Ihre E-Mail-Adresse und der Bestätigungsstatus von E-Mail-Adresse und Telefonnummer Ihres Mitarbeiterkontos.',
    path: deskPaths.settings,
  });
  return (
    <div className="py-8">
      <PageHeader title="Einstellungen" />
    </div>
  );
}
