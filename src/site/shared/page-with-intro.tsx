import type { ReactNode } from 'react';
import type { PageMeta } from '../../config/page-meta.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { usePageMeta } from '../../ui/use-page-meta.ts';

/** A public page: its title and tags, its heading with a one-paragraph introduction, its content. */
export function PageWithIntro(props: {
  meta: PageMeta;
  title: string;
  intro: string;
  children: ReactNode;
}) {
  usePageMeta(props.meta);
  return (
    <div className="py-8">
      <PageHeader title={props.title}>
        <p>{props.intro}</p>
      </PageHeader>
      {props.children}
    </div>
  );
}
