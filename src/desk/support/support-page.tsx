import { useState } from 'react';
import { useOwnDisplayName } from '../api/account.ts';
import { useSession } from '../api/session.ts';
import { useMyRole } from '../api/staff.ts';
import { useSendSupportMessage } from '../api/support.ts';
import { siteConfig } from '../../config/site.ts';
import { deskPaths } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { TextAreaField, TextField } from '../../ui/form-fields.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import { DeskScreen } from '../shared/desk-screen.tsx';
import { SupportFaq } from './support-faq.tsx';
import { SupportInbox } from './support-inbox.tsx';
import {
  senderName,
  supportFailedMessage,
  supportSchema,
  supportSentMessage,
  type SupportValues,
} from './support-form.ts';

function SupportHero() {
  const support = siteConfig.externalLinks.support;
  return (
    <section className="mb-6 rounded-lg bg-brand-800 p-6 text-white shadow">
      <p className="mb-3 text-lg">
        Hier findest du Antworten auf häufige Fragen zu Survey Desk und erreichst unser
        Support-Team.
      </p>
      <a
        href={support.href}
        target="_blank"
        rel="noreferrer"
        className="inline-flex min-h-11 items-center font-semibold underline"
      >
        Zur Website: {support.label}
        <span className="sr-only"> (öffnet in einem neuen Fenster)</span>
      </a>
    </section>
  );
}

function SupportForm() {
  const send = useSendSupportMessage();
  const email = useSession().data?.session?.user.email ?? '';
  const name = senderName(useOwnDisplayName().data, email);
  const [outcome, setOutcome] = useState<'sent' | 'failed' | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useZodForm(supportSchema, {
    defaultValues: { message: '' },
  });

  const submit = async (values: SupportValues) => {
    setOutcome(null);
    try {
      // The database writes the account's own name and address whatever is sent.
      await send.mutateAsync({ name, email, message: values.message });
    } catch {
      // The message itself stays out of the log: it may name customers.
      console.warn('Supportnachricht nicht gespeichert');
      setOutcome('failed');
      return;
    }
    reset();
    setOutcome('sent');
  };

  return (
    <section aria-labelledby="kontakt-ueberschrift" className="rounded-lg bg-white p-6 shadow">
      <h2 id="kontakt-ueberschrift" className="mb-4 text-xl font-bold text-slate-900">
        Nachricht an den Support
      </h2>
      <form
        noValidate
        aria-labelledby="kontakt-ueberschrift"
        onSubmit={(event) => void handleSubmit(submit)(event)}
        className="flex flex-col gap-4"
      >
        <TextField
          label="Name"
          readOnly
          value={name}
          hint="Dein Anzeigename aus den Einstellungen, sonst deine E-Mail-Adresse."
        />
        <TextField
          label="E-Mail-Adresse"
          type="email"
          readOnly
          value={email}
          hint="Die Adresse deines Kontos; der Support antwortet dorthin."
        />
        <TextAreaField
          label="Nachricht"
          aria-required
          error={errors.message?.message}
          {...register('message')}
        />
        {outcome === 'sent' ? <Alert tone="info">{supportSentMessage}</Alert> : null}
        {outcome === 'failed' ? <Alert tone="error">{supportFailedMessage}</Alert> : null}
        <Button type="submit" disabled={isSubmitting} className="self-start">
          Senden
        </Button>
      </form>
    </section>
  );
}

/** Everyone gets help and the form; admins first read what the form brought in. */
export function SupportPage() {
  const isAdmin = useMyRole().data === 'admin';
  return (
    <DeskScreen
      heading="Support & Dokumentation"
      meta={{
        title: 'Support & Dokumentation – Survey Desk',
        description:
          'Hilfe zu Survey Desk: häufige Fragen zu Kunden, Fragebögen und Analysen, die Dokumentation und ein Formular für deine Nachricht an das Support-Team.',
        path: deskPaths.support,
      }}
    >
      {isAdmin ? <SupportInbox /> : null}
      <SupportHero />
      <div className="grid gap-6 lg:grid-cols-2">
        <SupportFaq />
        <SupportForm />
      </div>
    </DeskScreen>
  );
}
