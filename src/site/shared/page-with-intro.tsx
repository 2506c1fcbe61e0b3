import type { ReactNode } from 'react';
import type { PageMeta } from '../../config/page-meta.ts';
import { PageHeader } from '../../ui/page-header.tsx';
import { usePageMeta } from '../../ui/use-page-meta.ts';

/**
 * Set on an element inside the page's content when the page has moved past its start, such as a
 * questionnaire's second question: the heading and introduction then leave the screen (they stay
 * for screen readers), and the content starts at the top.
 */
export const laterStepAttribute = 'data-later-step';

/** A public page: its title and tags, its heading with a one-paragraph introduction, its content. */
export function PageWithIntro(props: {
  meta: PageMeta;
  title: string;
  intro: string;
  children: ReactNode;
}) {
  usePageMeta(props.meta);
  return (
    // CSS alone (:has) hides the header, as the header is static HTML outside the page's island.
    <div className="group/page py-8 has-[[data-later-step]]:pt-4">
      <PageHeader title={props.title} className="group-has-[[data-later-step]]/page:sr-only">
        <p>{props.intro}</p>
      </PageHeader>
      {props.children}
    </div>
  );
}
