import { useId, type ReactNode } from 'react';
import { Button } from '../../ui/button.tsx';

/**
 * A step of the questionnaire, named by its heading. The heading takes the focus when the step
 * changes (`headingRef`), so keyboard and screen-reader users follow along.
 */
export function StepSection({
  title,
  headingRef,
  headingId: givenId,
  className,
  children,
}: {
  title: ReactNode;
  headingRef: (element: HTMLHeadingElement | null) => void;
  /** For controls the heading labels too; one is made up otherwise. */
  headingId?: string;
  className?: string;
  children: ReactNode;
}) {
  const ownId = useId();
  const headingId = givenId ?? ownId;
  return (
    <section aria-labelledby={headingId} className={className}>
      <h2
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        className="text-2xl font-semibold text-brand-900"
      >
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A step's form: its answer, then Zurück and Weiter; Weiter (or Enter) goes on. */
export function StepForm(props: {
  onNext: () => void;
  onBack: (() => void) | undefined;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        props.onNext();
      }}
    >
      {props.children}
      <StepActions onBack={props.onBack}>
        <Button type="submit">Weiter</Button>
      </StepActions>
    </form>
  );
}

export function StepActions({
  onBack,
  children,
}: {
  onBack: (() => void) | undefined;
  children?: ReactNode;
}) {
  return (
    <div className="mt-8 flex flex-wrap items-center justify-between gap-3">
      {onBack ? (
        <Button variant="secondary" onClick={onBack}>
          Zurück
        </Button>
      ) : (
        <span />
      )}
      {children}
    </div>
  );
}
