import { deskPaths } from '../../domain/routes.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { usePageMeta } from '../../ui/use-page-meta.ts';

export function SignupPage() {
  usePageMeta({
    title: 'Registrieren – Survey Desk',
    description:
      'Ein neues Mitarbeiterkonto für Survey Desk anlegen: mit E-Mail-Adresse und Passwort registrieren; nach der Freischaltung durch die Agentur geht es los.',
    path: deskPaths.signup,
  });
  return (
    <div className="py-8">
      <PageHeader title="Registrieren" />
    </div>
  );
}
