import type { ReactNode } from 'react';
import { StepSection } from './step-parts.tsx';

export function ThankYouStep({
  headingRef,
  delivery,
  children,
}: {
  headingRef: (element: HTMLHeadingElement | null) => void;
  delivery: 'sent' | 'queued';
  children?: ReactNode;
}) {
  return (
    <StepSection
      title="Vielen Dank für Ihre Anfrage!"
      headingRef={headingRef}
      className="rounded-2xl bg-white p-6 shadow-sm sm:p-8"
    >
      {delivery === 'sent' ? (
        <p className="mt-3 text-lg text-slate-700">
          Wir haben Ihre Angaben erhalten. Eine Beraterin oder ein Berater meldet sich in den
          nächsten Tagen bei Ihnen, kostenlos und unverbindlich.
        </p>
      ) : (
        <p className="mt-3 text-lg text-slate-700">
          Ihre Anfrage ist auf diesem Gerät gespeichert und wird automatisch gesendet, sobald eine
          Internetverbindung besteht. Danach meldet sich eine Beraterin oder ein Berater bei Ihnen.
        </p>
      )}
      {children ? <div className="mt-6">{children}</div> : null}
    </StepSection>
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
