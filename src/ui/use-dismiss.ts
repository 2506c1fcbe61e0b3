import { useEffect, type RefObject } from 'react';

/**
 * Closes a native `<details>` dropdown as people expect of one: on Escape (focus goes back to
 * its summary) and on a pointer press outside it. A native disclosure stays open until its
 * summary is clicked again. Survey Desk uses Headless UI's Menu and Popover for the same; the
 * public pages use this instead, because Headless UI would add about 28 KB (gzip) to what a
 * phone loads for one status control.
 */
export function useDismiss(details: RefObject<HTMLDetailsElement | null>): void {
  useEffect(() => {
    const close = (event: Event) => {
      const element = details.current;
      if (!element?.open) return;
      if (event instanceof KeyboardEvent) {
        if (event.key !== 'Escape') return;
        element.open = false;
        element.querySelector('summary')?.focus();
      } else if (!element.contains(event.target as Node)) {
        element.open = false;
      }
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [details]);
}
