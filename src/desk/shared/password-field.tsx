import { forwardRef, useId, useState, type InputHTMLAttributes } from 'react';
import { FieldError } from '../../ui/form-fields.tsx';

interface PasswordFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
  error?: string | undefined;
  /**
   * Set by a screen whose one toggle shows several password fields at once (registration); the
   * field then has no toggle of its own.
   */
  visible?: boolean | undefined;
}

/** A labelled password input with the spec's show/hide toggle beside it. */
export const PasswordField = forwardRef<HTMLInputElement, PasswordFieldProps>(
  function PasswordField({ label, error, visible: shownByScreen, className = '', ...input }, ref) {
    const id = useId();
    const errorId = `${id}-fehler`;
    const [shownHere, setShownHere] = useState(false);
    const visible = shownByScreen ?? shownHere;
    return (
      <div className={className}>
        <label htmlFor={id} className="mb-1 block font-medium text-slate-800">
          {label}
        </label>
        <div className="flex gap-2">
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
          {shownByScreen === undefined ? (
            <button
              type="button"
              aria-controls={id}
              onClick={() => setShownHere((shown) => !shown)}
              className="min-h-11 shrink-0 rounded-lg border border-brand-700 bg-white px-3 text-sm font-semibold text-brand-800 hover:bg-brand-50"
            >
              {visible ? 'Passwort verbergen' : 'Passwort anzeigen'}
            </button>
          ) : null}
        </div>
        <FieldError id={errorId} message={error} />
      </div>
    );
  },
);
