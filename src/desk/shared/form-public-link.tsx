import { useEffect, useRef, useState } from 'react';
import { publicFormPath } from '../../domain/routes.ts';
import { Button } from '../../ui/button.tsx';

export const linkCopiedMessage = 'Link kopiert';
export const copyUnavailableMessage =
  'Kopieren ist hier nicht möglich. Der Link ist markiert: kopiere ihn mit Strg+C (Mac: Cmd+C).';

/** Marks the link's text, so a browser without clipboard access still lets staff copy it. */
function selectText(element: HTMLElement) {
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** Where visitors answer this questionnaire, with a copy button. */
export function FormPublicLink({ formId, className = '' }: { formId: number; className?: string }) {
  const path = publicFormPath(formId);
  const address = `${window.location.origin}${path}`;
  const link = useRef<HTMLAnchorElement>(null);
  const [message, setMessage] = useState('');

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(''), 3000);
    return () => clearTimeout(timer);
  }, [message]);

  const copy = async () => {
    try {
      // Without a secure context or permission there is no clipboard: fall back to selecting.
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(address);
      setMessage(linkCopiedMessage);
    } catch {
      if (link.current) selectText(link.current);
      setMessage(copyUnavailableMessage);
    }
  };

  return (
    <div className={className}>
      <p className="text-sm font-medium text-slate-700">Öffentlicher Link</p>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <a
          ref={link}
          href={path}
          target="_blank"
          rel="noreferrer"
          className="break-all font-medium text-brand-800 underline underline-offset-2"
        >
          {path}
          <span className="sr-only"> (öffnet in einem neuen Fenster)</span>
        </a>
        <Button variant="ghost" className="px-2" onClick={() => void copy()}>
          Link kopieren
        </Button>
      </div>
      <p role="status" className="min-h-5 text-sm text-green-800">
        {message}
      </p>
    </div>
  );
}
