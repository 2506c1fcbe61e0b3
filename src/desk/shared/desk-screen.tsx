import type { ReactNode } from 'react';
import type { PageMeta } from '../../config/page-meta.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { usePageMeta } from '../../ui/use-page-meta.ts';

/**
 * The frame of a Survey Desk screen: its title and description in the document head (`meta`),
 * its visible heading, then the screen's content.
 */
export function DeskScreen(props: { meta: PageMeta; heading: string; children?: ReactNode }) {
  usePageMeta(props.meta);
  return (
    <div className="py-8">
      <PageHeader title={props.heading} />
      {props.children}
    </div>
  );
}
