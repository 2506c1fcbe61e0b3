import type { MouseEvent } from 'react';

interface SkipLinkProps {
  /** Id of the element that receives focus; it needs `tabIndex={-1}`. */
  targetId: string;
}

export function SkipLink({ targetId }: SkipLinkProps) {
  // Focus is moved by hand so the address bar does not gain a `#fragment`, which the router
  // would otherwise treat as a navigation.
  function skip(event: MouseEvent<HTMLAnchorElement>) {
    const target = document.getElementById(targetId);
    if (!target) return;
    event.preventDefault();
    target.focus();
  }

  return (
    <a
      href={`#${targetId}`}
      onClick={skip}
      className="sr-only z-50 rounded bg-white font-semibold text-brand-800 shadow-lg focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:px-4 focus:py-2"
    >
      Zum Inhalt springen
    </a>
  );
}
