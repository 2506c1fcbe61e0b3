import { deskPaths } from '../../domain/routes.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';

export function AnalysisPage() {
  return (
    <DeskScreen
      heading="Analyse"
      meta={{
        title: 'Analyse – Survey Desk',
        description:
          'Auswertungen Ihrer Fragebögen in Survey Desk: Sobald genügend Antworten vorliegen, erscheinen hier die Analysen; frühere Auswertungen über den Support.',
        path: deskPaths.analysis,
      }}
    />
  );
}
