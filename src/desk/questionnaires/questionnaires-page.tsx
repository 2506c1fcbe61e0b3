import { deskPaths } from '../../domain/routes.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';

export function QuestionnairesPage() {
  return (
    <DeskScreen
      heading="Fragebogen"
      meta={{
        title: 'Fragebogen – Survey Desk',
        description:
          'Alle Fragebögen der Agentur im Überblick: Titel, Beschreibung und Erstelldatum ansehen, neue Fragebögen anlegen und bestehende zum Bearbeiten öffnen.',
        path: deskPaths.questionnaires,
      }}
    />
  );
}
