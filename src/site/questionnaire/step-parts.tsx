import { useId, type ReactNode } from 'react';
import { Button } from '../../ui/button.tsx';
import { FormActions, formCardClass } from '../../ui/lead-form-parts.tsx';

/**
 * A step of the questionnaire, named by its heading, in the card every lead form sits in. The
 * heading takes the focus when the step changes (`headingRef`), so keyboard and screen-reader
 * users follow along.
 */
export function StepSection({
  title,
  headingRef,
  headingId: givenId,
  children,
}: {
  title: ReactNode;
  headingRef: (element: HTMLHeadingElement | null) => void;
  /** For controls the heading labels too; one is made up otherwise. */
  headingId?: string;
  children: ReactNode;
}) {
  const ownId = useId();
  const headingId = givenId ?? ownId;
  return (
    <section aria-labelledby={headingId} className={formCardClass}>
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

/**
 * A step's form: its answer, then Zurück and Weiter; Weiter (or Enter) goes on. With `noValidate`
 * the step checks its answer itself (`onNext`) and shows its own German message; otherwise the
 * browser's constraints (a date input's `max`) hold the step.
 */
export function StepForm(props: {
  onNext: () => void;
  onBack: (() => void) | undefined;
  noValidate?: boolean;
  children: ReactNode;
}) {
  return (
    <form
      noValidate={props.noValidate}
      onSubmit={(event) => {
        event.preventDefault();
        props.onNext();
      }}
    >
      {props.children}
      <StepActions onBack={props.onBack}>
        <Button type="submit" className="w-full sm:w-auto">
          Weiter
        </Button>
      </StepActions>
    </form>
  );
}

/** Zurück at the start, the step's own button at the end: the row every lead form has. */
export function StepActions({
  onBack,
  children,
}: {
  onBack: (() => void) | undefined;
  children?: ReactNode;
}) {
  return (
    <FormActions
      start={
        onBack ? (
          <Button variant="secondary" className="w-full sm:w-auto" onClick={onBack}>
            Zurück
          </Button>
        ) : undefined
      }
    >
      {children}
    </FormActions>
  );
}
