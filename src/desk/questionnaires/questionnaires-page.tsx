import { deskPaths } from '../../domain/routes.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { usePageMeta } from '../../ui/use-page-meta.ts';

export function QuestionnairesPage() {
  usePageMeta({
    title: 'Fragebogen – Survey Desk',
    description:
      'Alle Fragebögen der Agentur im Überblick: Titel, Beschreibung und Erstelldatum ansehen, neue Fragebögen anlegen und bestehende zum Bearbeiten öffnen.',
    path: deskPaths.questionnaires,
  });
  return (
    <div className="py-8">
      <PageHeader title="Fragebogen" />
    </div>
  );
}
