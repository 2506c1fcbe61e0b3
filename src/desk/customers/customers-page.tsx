import { deskPaths } from '../../domain/routes.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';

export function CustomersPage() {
  return (
    <DeskScreen
      heading="Kunden Daten"
      meta={{
        title: 'Kunden Daten – Survey Desk',
        description:
          'Kundendaten durchsuchen und pflegen: alle Interessenten aus Fragebögen und Kontaktformularen mit ihren Kontaktdaten und Details in einer Tabelle.',
        path: deskPaths.customers,
      }}
    />
  );
}
