import { useEffect, useId, useRef, type ReactNode } from 'react';
import { sitePaths } from '../domain/routes.ts';
import { Button } from './button.tsx';
import { formCardClass } from './lead-form-parts.tsx';

/** What every lead form says once its lead is saved on this device and waits to be sent. */
export const queuedText =
  'Ihre Anfrage ist auf diesem Gerät gespeichert und wird automatisch gesendet, sobald eine Internetverbindung besteht. Danach meldet sich unser Team bei Ihnen.';

/** The spec's success text of the KFZ and the contact form. */
export const callbackSentText =
  'Erfolgreich gesendet. Unser Team meldet sich in den nächsten Tagen bei Ihnen für eine kostenlose Beratung.';

const linkButtonClass =
  'inline-flex min-h-11 w-full items-center justify-center rounded-lg border border-brand-700 bg-white px-5 py-2.5 font-semibold text-brand-800 no-underline hover:bg-brand-50 sm:w-auto';

/**
 * The one thank-you of every lead form (KFZ, contact, questionnaires): in the forms' card, the
 * heading 'Vielen Dank für Ihre Anfrage!', the form's own success text (`sentText`) or that the
 * lead waits on this device, the form's downloads (`children`), and the way on: a new request
 * (`onAgain`), the form's own `actions`, and the start page. The heading takes the focus, as the
 * form the focus was in is gone.
 */
export function LeadSent({
  delivery,
  sentText,
  onAgain,
  actions,
  startLink = true,
  children,
}: {
  delivery: 'sent' | 'queued';
  sentText: string;
  /** 'Weitere Anfrage stellen': back to the empty form. */
  onAgain?: (() => void) | undefined;
  /** Further buttons, such as the fair tablet's 'Neuen Fragebogen starten'. */
  actions?: ReactNode;
  /** 'Zur Startseite'; left out on the fair tablet, which stays with its questionnaire. */
  startLink?: boolean;
  children?: ReactNode;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      aria-labelledby={headingId}
      className={`${formCardClass} border-t-4 border-emerald-600`}
    >
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="flex size-9 shrink-0 items-center justify-center rounded-full bg-emerald-100 text-xl font-bold text-emerald-800"
        >
          ✓
        </span>
        <h2
          id={headingId}
          ref={heading}
          tabIndex={-1}
          className="pt-0.5 text-2xl font-semibold text-brand-900"
        >
          Vielen Dank für Ihre Anfrage!
        </h2>
      </div>
      <p role="status" className="mt-4 text-lg text-slate-700">
        {delivery === 'sent' ? sentText : queuedText}
      </p>
      {children ? <div className="mt-6">{children}</div> : null}
      <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
        {actions}
        {onAgain ? (
          <Button variant="secondary" className="w-full sm:w-auto" onClick={onAgain}>
            Weitere Anfrage stellen
          </Button>
        ) : null}
        {startLink ? (
          <a href={sitePaths.landing} className={linkButtonClass}>
            Zur Startseite
          </a>
        ) : null}
      </div>
    </section>
  );
}
