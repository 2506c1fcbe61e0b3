import { Description, Field, Label, Switch } from '@headlessui/react';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import {
  useLeadMailOverview,
  useLeadMailSettings,
  useSaveLeadMailSettings,
  type LeadMailSettings,
} from '../api/lead-mail.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { SelectField, TextField } from '../../ui/form-fields.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { PageLoading } from '../../ui/page-loading.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import {
  formValues,
  leadMailFormSchema,
  leadMailSaveFailedMessage,
  savedMessage,
  scheduleOptions,
  settingsChange,
  type LeadMailFormValues,
} from './lead-mail-form.ts';

function LeadMailForm({
  settings,
  saved,
  onSaved,
}: {
  settings: LeadMailSettings;
  saved: string | null;
  onSaved: (message: string | null) => void;
}) {
  const save = useSaveLeadMailSettings();
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useZodForm(leadMailFormSchema, {
    defaultValues: formValues(settings),
  });

  const submit = async (values: LeadMailFormValues) => {
    onSaved(null);
    const done = await save
      .mutateAsync(settingsChange(values, settings))
      .then(() => true)
      .catch(() => false);
    if (done) onSaved(savedMessage(values));
  };

  return (
    <form
      noValidate
      aria-label="Benachrichtigung bei neuen Anfragen"
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="grid gap-4 rounded-lg bg-white p-4 shadow sm:grid-cols-2"
    >
      <Controller
        control={control}
        name="enabled"
        render={({ field }) => (
          <Field className="flex items-start gap-3 sm:col-span-2">
            <Switch
              checked={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              className="group relative mt-0.5 inline-flex h-7 w-12 shrink-0 items-center rounded-full bg-slate-400 transition-colors focus:outline-none data-[checked]:bg-brand-700 data-[focus]:outline-2 data-[focus]:outline-offset-2 data-[focus]:outline-brand-700"
            >
              <span
                aria-hidden="true"
                className="inline-block size-5 translate-x-1 rounded-full bg-white transition-transform group-data-[checked]:translate-x-6"
              />
            </Switch>
            <div>
              <Label className="font-medium text-slate-900">E-Mail bei neuen Anfragen</Label>
              <Description className="text-sm text-slate-600">
                Die Mail nennt Formular, Name, Rückrufwunsch und einen Link in den Survey Desk –
                keine Antworten und keine Kontaktdaten.
              </Description>
            </div>
          </Field>
        )}
      />
      <TextField
        label="E-Mail-Adresse für Benachrichtigungen"
        type="email"
        autoComplete="email"
        error={errors.address?.message}
        {...register('address')}
      />
      <SelectField
        label="Wann"
        options={scheduleOptions}
        error={errors.schedule?.message}
        {...register('schedule')}
      />
      <div className="sm:col-span-2">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Wird gespeichert …' : 'Benachrichtigung speichern'}
        </Button>
        <p role="status" className="mt-2 text-sm text-slate-700 empty:hidden">
          {saved ?? ''}
        </p>
        {save.isError ? <Alert tone="error">{leadMailSaveFailedMessage}</Alert> : null}
      </div>
    </form>
  );
}

/** Mails the worker gave up on: the admin checks the address or the server's mail setup. */
function FailedMails() {
  const overview = useLeadMailOverview();
  if (overview.isPending) return null;
  if (overview.isError) {
    return (
      <LoadError onRetry={() => overview.refetch()}>
        Der Versandstatus der Benachrichtigungen konnte nicht geladen werden.
      </LoadError>
    );
  }
  const { failed } = overview.data;
  if (failed === 0) return null;
  return (
    <Alert tone="error">
      {failed === 1
        ? '1 Benachrichtigung konnte auch nach mehreren Versuchen nicht verschickt werden.'
        : `${failed} Benachrichtigungen konnten auch nach mehreren Versuchen nicht verschickt werden.`}{' '}
      Bitte prüfe die Adresse und die Mail-Einstellungen des Servers (SMTP_URL).
    </Alert>
  );
}

/** Admins choose whether, where and when new leads are mailed (immediately or a daily digest). */
export function LeadMailSettingsForm() {
  const settings = useLeadMailSettings();
  // Kept outside the form: the form starts afresh with the saved values, the message stays.
  const [saved, setSaved] = useState<string | null>(null);
  if (settings.isPending) return <PageLoading />;
  if (settings.isError) {
    return (
      <LoadError onRetry={() => settings.refetch()}>
        Die Benachrichtigung konnte nicht geladen werden.
      </LoadError>
    );
  }
  return (
    <div className="space-y-3">
      <FailedMails />
      {/* Keyed by the saved state: after a save the form shows what the database holds. */}
      <LeadMailForm
        key={settings.data.updated_at}
        settings={settings.data}
        saved={saved}
        onSaved={setSaved}
      />
    </div>
  );
}
