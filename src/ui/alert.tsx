import type { ReactNode } from 'react';

/** A message that screen readers announce when it appears. */
export function Alert({ tone, children }: { tone: 'error' | 'info'; children: ReactNode }) {
  const styles =
    tone === 'error'
      ? 'border-red-300 bg-red-50 text-red-900'
      : 'border-brand-200 bg-brand-50 text-brand-900';
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-lg border p-4 ${styles}`}>
      {children}
    </div>
  );
}
