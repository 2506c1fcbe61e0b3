import { useEffect, useRef } from 'react';
import { Button } from './button.tsx';

/** Replaces a sent KFZ or contact form: the spec's success text, or "saved on this device". */
export function LeadSent({
  delivery,
  onAgain,
}: {
  delivery: 'sent' | 'queued';
  onAgain: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // The form the focus was in is gone; the message takes its place for keyboard and screen readers.
  useEffect(() => ref.current?.focus(), []);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="status"
      className="rounded-2xl border border-emerald-300 bg-emerald-50 p-6 text-emerald-950"
    >
      {delivery === 'sent' ? (
        <p className="text-lg font-semibold">
          Erfolgreich gesendet. Unser Team meldet sich in den nächsten Tagen bei Ihnen für eine
          kostenlose Beratung.
        </p>
      ) : (
        <p className="text-lg font-semibold">
          Ihre Anfrage ist auf diesem Gerät gespeichert und wird automatisch gesendet, sobald eine
          Internetverbindung besteht. Danach meldet sich unser Team bei Ihnen.
        </p>
      )}
      <Button variant="secondary" className="mt-4" onClick={onAgain}>
        Weitere Anfrage stellen
      </Button>
    </div>
  );
}
