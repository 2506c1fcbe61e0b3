import { deskPaths } from '../../domain/routes.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';

export function SupportPage() {
  return (
    <DeskScreen
      heading="Support & Dokumentation"
      meta={{
        title: 'Support & Dokumentation – Survey Desk',
        description:
          'Hilfe zu Survey Desk: häufige Fragen zu Kunden, Fragebögen und Analysen, die Dokumentation und ein Formular für Ihre Nachricht an das Support-Team.',
        path: deskPaths.support,
      }}
    />
  );
}
