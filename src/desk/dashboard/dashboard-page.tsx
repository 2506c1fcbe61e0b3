import { deskPaths } from '../../domain/routes.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';

export function DashboardPage() {
  return (
    <DeskScreen
      heading="Willkommen"
      meta={{
        title: 'Dashboard – Survey Desk',
        description:
          'Startseite von Survey Desk: Überblick über Kunden, Fragebögen, Analysen und Support im internen Arbeitsbereich der Versicherungsagentur.',
        path: deskPaths.dashboard,
      }}
    />
  );
}
