import type { DefaultValues, FieldErrors, Path } from 'react-hook-form';
import type { z } from 'zod';
import type { LeadContext } from '../../domain/lead-submissions.ts';
import type { OutboxSubmissionKeys } from '../../offline/offline-schema.ts';
import { useLeadSender } from '../../offline/use-lead-sender.ts';
import { currentCookieConsent } from '../../ui/cookie-consent.ts';
import { honeypotFilled } from '../../ui/form-fields.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';

/** The two consents every lead form asks for (DESIGN 10), as the form holds them. */
type ConsentInput = { terms_accepted: boolean; data_processing_consent: boolean };

export type ConsentSchema = z.ZodType<ConsentInput, ConsentInput>;

export interface LeadFormOptions<Schema extends ConsentSchema, Lead extends OutboxSubmissionKeys> {
  schema: Schema;
  /** The empty form; the form returns to it once a lead is safe. */
  emptyValues: z.input<Schema>;
  /** What the form starts with instead, such as a questionnaire's draft. */
  initialValues?: Partial<z.input<Schema>> | undefined;
  /**
   * When a field shows its problem: from the first submit on (the default; the KFZ and contact
   * pages), or as soon as the visitor leaves the field ('once-touched', the questionnaire).
   */
  showErrors?: 'after-submit' | 'once-touched';
  /** The lead to send for valid values, with this send's client id, time and cookie choice. */
  toLead: (values: z.output<Schema>, context: LeadContext) => Lead;
  /** Runs once the lead is sent or saved on this device. */
  onDelivered?: ((delivery: 'sent' | 'queued') => void) | undefined;
  /**
   * Runs as soon as the lead is safe in the outbox, before the hub answers (which may take
   * seconds): whatever would offer the same lead again, such as a draft, goes here.
   */
  onStored?: (() => void) | undefined;
}

/**
 * A lead form: validation with the German messages of the schema, the honeypot, the visitor's
 * cookie choice recorded with the lead, sending through the outbox, the 'Senden...' state, and
 * an empty form once the lead is safe.
 */
export function useLeadForm<Schema extends ConsentSchema, Lead extends OutboxSubmissionKeys>(
  options: LeadFormOptions<Schema, Lead>,
) {
  type Input = z.input<Schema>;
  const {
    schema,
    emptyValues,
    showErrors = 'after-submit',
    toLead,
    onDelivered,
    onStored,
  } = options;
  const sender = useLeadSender<Lead>();
  const form = useZodForm(schema, {
    // A field is checked once left, then at every change; `showErrors` decides when its problem
    // shows.
    mode: 'onTouched',
    // react-hook-form would focus the field registered first: the consents, which this hook
    // registers before the form's own fields. The first problem on screen gets it instead.
    shouldFocusError: false,
    defaultValues: { ...emptyValues, ...options.initialValues } as DefaultValues<Input>,
  });

  /**
   * The field's registration and its problem when it is to be shown. `showOnceTouched` shows it
   * as soon as the field was left, even on a form that otherwise waits for a submit.
   */
  function field<Name extends Path<Input>>(name: Name, show?: { showOnceTouched: boolean }) {
    const { error, isTouched } = form.getFieldState(name, form.formState);
    const shown =
      showErrors === 'once-touched' ||
      form.formState.submitCount > 0 ||
      (show?.showOnceTouched === true && isTouched);
    return { ...form.register(name), error: shown ? error?.message : undefined };
  }

  const submit = form.handleSubmit(async (values, event) => {
    // A bot sees the usual success, and nothing is stored or sent.
    if (honeypotFilled(event)) return sender.pretendSent();
    const cookieConsent = currentCookieConsent();
    const outcome = await sender.send(
      (clientId, now) => toLead(values, { clientId, now, cookieConsent }),
      { onStored },
    );
    if (outcome.status === 'sent' || outcome.status === 'queued') {
      form.reset(emptyValues);
      onDelivered?.(outcome.status);
    }
  }, focusFirstProblem);

  const { state } = sender;
  return {
    form,
    field,
    // Every schema here has both consents; TypeScript cannot see a generic form's paths.
    consents: {
      terms: field('terms_accepted' as Path<Input>),
      privacy: field('data_processing_consent' as Path<Input>),
    },
    submit,
    sending: state.status === 'sending',
    failure: state.status === 'failed' ? state.message : undefined,
    delivered: state.status === 'sent' || state.status === 'queued' ? state.status : undefined,
    /** Back to an empty form after a delivered lead ("Weitere Anfrage stellen"). */
    again: sender.reset,
  };
}

/**
 * After a submit with problems, the focus goes to the first field in error as the visitor sees
 * the form (document order), so the browser scrolls there and a screen reader reads its message.
 */
function focusFirstProblem(errors: FieldErrors, event: { target: unknown } | undefined): void {
  const form = event?.target;
  if (!(form instanceof HTMLFormElement)) return;
  const first = Array.from(form.elements).find(
    (element): element is HTMLInputElement =>
      'name' in element && typeof element.name === 'string' && element.name in errors,
  );
  first?.focus();
}
