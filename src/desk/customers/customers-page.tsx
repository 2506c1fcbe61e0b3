import { deskPaths } from '../../domain/routes.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { usePageMeta } from '../../ui/use-page-meta.ts';

export function CustomersPage() {
  usePageMeta({
    title: 'Kunden Daten – Survey Desk',
    description:
      'Kundendaten durchsuchen und pflegen: alle Interessenten aus Fragebögen und Kontaktformularen mit ihren Kontaktdaten und Details in einer Tabelle.',
    path: deskPaths.customers,
  });
  return (
    <div className="py-8">
      <PageHeader title="Kunden Daten" />
    </div>
  );
}
