import { deskPaths } from '../../domain/routes.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { usePageMeta } from '../../ui/use-page-meta.ts';

export function DashboardPage() {
  usePageMeta({
    title: 'Dashboard – Survey Desk',
    description:
      'Startseite von Survey Desk: Überblick über Kunden, Fragebögen, Analysen und Support im internen Arbeitsbereich der Versicherungsagentur.',
    path: deskPaths.dashboard,
  });
  return (
    <div className="py-8">
      <PageHeader title="Willkommen" />
    </div>
  );
}
