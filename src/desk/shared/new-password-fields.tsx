import { useState } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { Button } from '../../ui/button.tsx';
import { PasswordField } from './password-field.tsx';

/** The part of a form that chooses a new password: the password and its repetition. */
interface NewPasswordParts {
  password: string;
  confirmation: string;
}

interface NewPasswordFieldsProps {
  register: UseFormRegister<NewPasswordParts>;
  errors: FieldErrors<NewPasswordParts>;
  /** 'Passwort' on registration, 'Neues Passwort' where one replaces another. */
  passwordLabel: string;
  confirmationLabel: string;
}

/**
 * The new password twice with one toggle that shows or hides both (spec: registration), shared
 * by registration, the new password after a recovery link and the change in Einstellungen.
 */
export function NewPasswordFields({
  register,
  errors,
  passwordLabel,
  confirmationLabel,
}: NewPasswordFieldsProps) {
  const [visible, setVisible] = useState(false);
  return (
    <>
      <PasswordField
        label={passwordLabel}
        visible={visible}
        autoComplete="new-password"
        aria-required
        error={errors.password?.message}
        {...register('password')}
      />
      <PasswordField
        label={confirmationLabel}
        visible={visible}
        autoComplete="new-password"
        aria-required
        error={errors.confirmation?.message}
        {...register('confirmation')}
      />
      <Button
        variant="secondary"
        className="self-start"
        aria-pressed={visible}
        onClick={() => setVisible((shown) => !shown)}
      >
        {visible ? 'Passwörter verbergen' : 'Passwörter anzeigen'}
      </Button>
    </>
  );
}
