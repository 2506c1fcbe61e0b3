import { deskPaths } from '../../domain/routes.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';

export function SettingsPage() {
  return (
    <DeskScreen
      heading="Einstellungen"
      meta={{
        title: 'Einstellungen – Survey Desk',
        description:
          'Kontoeinstellungen in Survey Desk: Ihre E-Mail-Adresse und der Bestätigungsstatus von E-Mail-Adresse und Telefonnummer Ihres Mitarbeiterkontos.',
        path: deskPaths.settings,
      }}
    />
  );
}
