import { deskPaths } from '../../domain/routes.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';

export function SigninPage() {
  return (
    <DeskScreen
      heading="Anmelden"
      meta={{
        title: 'Anmelden – Survey Desk',
        description:
          'Anmeldung für Mitarbeiterinnen und Mitarbeiter: Mit E-Mail-Adresse und Passwort anmelden und Kunden, Fragebögen und Analysen in Survey Desk verwalten.',
        path: deskPaths.signin,
      }}
    />
  );
}
