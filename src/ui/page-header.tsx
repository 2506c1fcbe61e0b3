import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: string;
  /** Short introduction under the heading. */
  children?: ReactNode;
  className?: string;
}

export function PageHeader({ title, children, className = '' }: PageHeaderProps) {
  return (
    <header className={className ? `mb-8 ${className}` : 'mb-8'}>
      <h1 className="text-3xl font-bold tracking-tight text-brand-900 sm:text-4xl">{title}</h1>
      {children ? <div className="mt-3 max-w-prose text-lg text-slate-600">{children}</div> : null}
    </header>
  );
}
