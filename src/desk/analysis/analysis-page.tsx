import { siteConfig } from '../../config/site.ts';
import { deskPaths } from '../../domain/routes.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';

/** The spec's placeholder until the analysis issue brings real evaluations. */
export function AnalysisPage() {
  const support = siteConfig.externalLinks.support;
  return (
    <DeskScreen
      heading="Analyse"
      meta={{
        title: 'Analyse – Survey Desk',
        description:
          'Auswertungen Ihrer Fragebögen in Survey Desk: Sobald genügend Antworten vorliegen, erscheinen hier die Analysen; frühere Auswertungen über den Support.',
        path: deskPaths.analysis,
      }}
    >
      <div className="max-w-2xl space-y-3 rounded-lg bg-white p-6 shadow">
        <p className="font-semibold">Die Analyse ist noch nicht verfügbar.</p>
        <p>
          Damit aussagekräftige Auswertungen möglich sind, werden Daten aus etwa 30 Tagen benötigt.
          Bitte haben Sie noch etwas Geduld.
        </p>
        <p>
          Sie möchten schon früher eine Auswertung?{' '}
          <a
            href={support.href}
            target="_blank"
            rel="noreferrer"
            className="font-semibold text-brand-800 underline"
          >
            Wenden Sie sich an den Support
            <span className="sr-only"> (öffnet in einem neuen Fenster)</span>
          </a>
          .
        </p>
      </div>
    </DeskScreen>
  );
}
