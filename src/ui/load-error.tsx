import type { ReactNode } from 'react';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';

/**
 * What a screen shows when its data could not be read: the German message, announced as an
 * alert, and a button that asks again. `framed={false}` inside a card or section that has its own
 * frame already.
 */
export function LoadError({
  children,
  detail,
  onRetry,
  framed = true,
}: {
  /** "… konnte(n) nicht geladen werden." */
  children: ReactNode;
  /** A second line: why, or what to do meanwhile. */
  detail?: ReactNode;
  onRetry: () => unknown;
  framed?: boolean;
}) {
  const content = (
    <>
      <p className={detail ? 'font-semibold' : undefined}>{children}</p>
      {detail ? <p className="mt-1">{detail}</p> : null}
      <Button variant="secondary" className="mt-3" onClick={() => void onRetry()}>
        Erneut versuchen
      </Button>
    </>
  );
  if (framed) return <Alert tone="error">{content}</Alert>;
  return (
    <div role="alert" className="text-red-900">
      {content}
    </div>
  );
}
