import { PageHeader } from '../../ui/page-header.tsx';
import { usePageMeta } from '../../ui/use-page-meta.ts';

export function CustomersPage() {
  usePageMeta({
    title: 'Kunden Daten – Survey Desk',
    description:
      'Kundendaten durchsuchen und pflegen: alle Interessenten aus Fragebögen und Kontaktformularen mit ihren Kontaktdaten und Details in einer Tabelle.',
    path: '/surveydesk/customer',
  });
  return (
    <div className="py-8">
      <PageHeader title="Kunden Daten" />
    </div>
  );
}
