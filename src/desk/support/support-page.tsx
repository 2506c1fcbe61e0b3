import { deskPaths } from '../../domain/routes.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { usePageMeta } from '../../ui/use-page-meta.ts';

export function SupportPage() {
  usePageMeta({
    title: 'Support & Dokumentation – Survey Desk',
    description:
      'Hilfe zu Survey Desk: häufige Fragen zu Kunden, Fragebögen und Analysen, die Dokumentation und ein Formular für Ihre Nachricht an das Support-Team.',
    path: deskPaths.support,
  });
  return (
    <div className="py-8">
      <PageHeader title="Support & Dokumentation" />
    </div>
  );
}
