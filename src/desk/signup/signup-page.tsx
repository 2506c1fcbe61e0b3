import { deskPaths } from '../../domain/routes.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';

export function SignupPage() {
  return (
    <DeskScreen
      heading="Registrieren"
      meta={{
        title: 'Registrieren – Survey Desk',
        description:
          'Ein neues Mitarbeiterkonto für Survey Desk anlegen: mit E-Mail-Adresse und Passwort registrieren; nach der Freischaltung durch die Agentur geht es los.',
        path: deskPaths.signup,
      }}
    />
  );
}
