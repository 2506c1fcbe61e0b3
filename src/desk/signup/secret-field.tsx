import { forwardRef, useId, type InputHTMLAttributes } from 'react';
import { FieldError } from '../../ui/form-fields.tsx';

interface SecretFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
  /** Shown as plain text; the screen's one toggle switches both password fields. */
  visible: boolean;
  error?: string | undefined;
}

export const SecretField = forwardRef<HTMLInputElement, SecretFieldProps>(function SecretField(
  { label, visible, error, ...input },
  ref,
) {
  const id = useId();
  const errorId = `${id}-fehler`;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-medium text-slate-800">
        {label}
      </label>
      <input
        ref={ref}
        id={id}
        type={visible ? 'text' : 'password'}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={`block min-h-11 w-full rounded-lg border bg-white px-3 py-2 text-base text-slate-900 ${
          error ? 'border-red-700' : 'border-slate-400'
        }`}
        {...input}
      />
      <FieldError id={errorId} message={error} />
    </div>
  );
});
