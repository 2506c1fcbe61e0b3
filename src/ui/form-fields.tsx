import {
  forwardRef,
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

/**
 * Ties a control to its error and hint (aria-describedby, aria-invalid), so assistive
 * technology and tests find the field by its label and read the message with it.
 */
function useFieldIds(error: string | undefined, hint?: string) {
  const id = useId();
  const errorId = `${id}-fehler`;
  const hintId = `${id}-hinweis`;
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ');
  return {
    id,
    errorId,
    hintId,
    aria: {
      'aria-invalid': error ? true : undefined,
      'aria-describedby': describedBy || undefined,
    },
  };
}

const boxClass = (error: string | undefined, height = '') =>
  // Read-only fields (a customer's 'Angelegt am') must look read-only, yet stay legible.
  `block ${height}w-full rounded-lg border bg-white px-3 py-2 text-base text-slate-900 disabled:bg-slate-100 disabled:text-slate-700 ${
    error ? 'border-red-700' : 'border-slate-400'
  }`;

/**
 * The mark of a required field after its label, the same on every form: a red '*' that the form's
 * note explains once (RequiredNote). Assistive technology hears "erforderlich" from the control's
 * `aria-required` instead, so the '*' stays out of the field's name.
 */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="text-red-700">
      {' '}
      *
    </span>
  );
}

/** The one line that explains the '*' of a form's required fields; above the form's fields. */
export function RequiredNote({ className = '' }: { className?: string }) {
  return (
    <p className={`text-sm text-slate-600 ${className}`}>
      Felder mit <span className="font-semibold text-red-700">*</span> sind Pflichtfelder.
    </p>
  );
}

/** A field's frame: its label above the control, its error below. */
function LabelledField(props: {
  id: string;
  label: string;
  required?: boolean | undefined;
  className: string;
  children: ReactNode;
}) {
  return (
    <div className={props.className}>
      <label htmlFor={props.id} className="mb-1 block font-medium text-slate-800">
        {props.label}
        {props.required ? <RequiredMark /> : null}
      </label>
      {props.children}
    </div>
  );
}

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  hint?: string;
}

/** A labelled input; `required` marks the label and tells assistive technology. */
export const TextField = forwardRef<HTMLInputElement, FieldProps>(function TextField(
  { label, error, hint, className = '', required, ...input },
  ref,
) {
  const { id, errorId, hintId, aria } = useFieldIds(error, hint);
  return (
    <LabelledField id={id} label={label} required={required} className={className}>
      <input
        ref={ref}
        id={id}
        {...aria}
        aria-required={required || undefined}
        className={boxClass(error, 'min-h-11 ')}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </LabelledField>
  );
});

interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
  error?: string | undefined;
}

/** A labelled checkbox; `required` marks its label as TextField does and tells assistive tech. */
export const CheckboxField = forwardRef<HTMLInputElement, CheckboxProps>(function CheckboxField(
  { label, error, className = '', required, ...input },
  ref,
) {
  const { id, errorId, aria } = useFieldIds(error);
  return (
    <div className={className}>
      <div className="flex items-start gap-3">
        <input
          ref={ref}
          id={id}
          type="checkbox"
          {...aria}
          aria-required={required || undefined}
          className="mt-1 size-5 shrink-0 accent-brand-700"
          {...input}
        />
        <label htmlFor={id} className="text-slate-800">
          {label}
          {required ? <RequiredMark /> : null}
        </label>
      </div>
      <FieldError id={errorId} message={error} className="ml-8" />
    </div>
  );
});

export function FieldError({
  id,
  message,
  className = '',
}: {
  id: string;
  message: string | undefined;
  className?: string;
}) {
  if (!message) return null;
  return (
    <p id={id} className={`mt-1 text-sm font-medium text-red-700 ${className}`}>
      {message}
    </p>
  );
}

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string | undefined;
  options: readonly { value: string; label: string }[];
}

export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, error, options, className = '', ...select },
  ref,
) {
  const { id, errorId, aria } = useFieldIds(error);
  return (
    <LabelledField id={id} label={label} className={className}>
      <select ref={ref} id={id} {...aria} className={boxClass(error, 'min-h-11 ')} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError id={errorId} message={error} />
    </LabelledField>
  );
});

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string | undefined;
}

export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(
  function TextAreaField({ label, error, className = '', ...area }, ref) {
    const { id, errorId, aria } = useFieldIds(error);
    return (
      <LabelledField id={id} label={label} className={className}>
        <textarea ref={ref} id={id} rows={5} {...aria} className={boxClass(error)} {...area} />
        <FieldError id={errorId} message={error} />
      </LabelledField>
    );
  },
);

/**
 * A field people never see or reach: bots fill every input, so a value here marks a bot.
 * Hidden from assistive technology too, and left out of the tab order.
 */
export function HoneypotField() {
  const id = useId();
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Website</label>
      <input id={id} name="website" type="text" tabIndex={-1} autoComplete="off" />
    </div>
  );
}

/** Whether the submitted form's honeypot has a value. */
export function honeypotFilled(event: { target: unknown } | undefined): boolean {
  const form = event?.target;
  if (!(form instanceof HTMLFormElement)) return false;
  return Boolean(new FormData(form).get('website'));
}
