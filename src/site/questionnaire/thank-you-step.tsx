import type { ReactNode } from 'react';
import { Button } from '../../ui/button.tsx';
import { LeadSent } from '../../ui/lead-sent.tsx';

/** What a questionnaire's thank-you says once the lead has reached the office. */
export const questionnaireSentText =
  'Wir haben Ihre Angaben erhalten. Eine Beraterin oder ein Berater meldet sich in den nächsten Tagen bei Ihnen, kostenlos und unverbindlich.';

/**
 * The questionnaire's last step: the thank-you every lead form shows, with the questionnaire's
 * downloads; on the fair tablet a new questionnaire instead of the way to the start page.
 */
export function ThankYouStep({
  delivery,
  onRestart,
  children,
}: {
  delivery: 'sent' | 'queued';
  /** The fair tablet's 'Neuen Fragebogen starten'. */
  onRestart: (() => void) | undefined;
  children?: ReactNode;
}) {
  return (
    <LeadSent
      delivery={delivery}
      sentText={questionnaireSentText}
      startLink={!onRestart}
      actions={
        onRestart ? (
          <Button className="w-full sm:w-auto" onClick={onRestart}>
            Neuen Fragebogen starten
          </Button>
        ) : undefined
      }
    >
      {children}
    </LeadSent>
  );
}

export function DownloadLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener"
      className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-brand-700 px-4 py-2 font-semibold text-brand-800 hover:bg-brand-50"
    >
      <span aria-hidden="true">⬇</span>
      {children}
      <span className="sr-only"> (PDF, öffnet in neuem Tab)</span>
    </a>
  );
}
