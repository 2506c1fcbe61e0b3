import { deskPaths } from '../../domain/routes.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { usePageMeta } from '../../ui/use-page-meta.ts';

export function SigninPage() {
  usePageMeta({
    title: 'Anmelden – Survey Desk',
    description:
      'Anmeldung für Mitarbeiterinnen und Mitarbeiter: Mit E-Mail-Adresse und Passwort anmelden und Kunden, Fragebögen und Analysen in Survey Desk verwalten.',
    path: deskPaths.signin,
  });
  return (
    <div className="py-8">
      <PageHeader title="Anmelden" />
    </div>
  );
}
