import { useState } from 'react';
import {
  useAddRetentionHold,
  useLiftRetentionHold,
  useRetentionHolds,
  type RetentionHold,
} from '../api/retention.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { AdminTableHead } from '../../ui/admin-table-head.tsx';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/form-fields.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import {
  holdLiftFailedMessage,
  holdSaveFailedMessage,
  retentionHoldSchema,
  unknownCustomerMessage,
  type RetentionHoldValues,
} from './retention-hold-form.ts';

const shownDay = (day: string) => day.split('-').reverse().join('.');
const customerName = (hold: RetentionHold) =>
  hold.users ? `${hold.users.first_name} ${hold.users.last_name}` : 'Unbekannter Kunde';

function HoldForm() {
  const add = useAddRetentionHold();
  const [saved, setSaved] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(retentionHoldSchema, {
    defaultValues: { email: '', reason: '', until: '' },
  });

  const submit = async (values: RetentionHoldValues) => {
    setSaved(null);
    const outcome = await add.mutateAsync(values).catch(() => 'failed' as const);
    if (outcome === 'unknown_customer') {
      setError('email', { message: unknownCustomerMessage }, { shouldFocus: true });
    } else if (outcome === 'added') {
      reset();
      setSaved(`Gespeichert: Die Daten zu ${values.email} werden nicht automatisch gelöscht.`);
    }
  };

  return (
    <form
      noValidate
      aria-labelledby="sperre-anlegen"
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="grid gap-4 sm:grid-cols-2"
    >
      <h4 id="sperre-anlegen" className="font-semibold text-slate-900 sm:col-span-2">
        Sperre anlegen
      </h4>
      <TextField
        label="E-Mail-Adresse des Kunden"
        type="email"
        required
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        label="Aufbewahren bis"
        type="date"
        hint="Leer lassen, solange das Ende nicht feststeht."
        error={errors.until?.message}
        {...register('until')}
      />
      <TextField
        label="Grund"
        required
        className="sm:col-span-2"
        hint="z. B. Versicherungsvertrag mit Nummer, Aufbewahrung nach HGB"
        error={errors.reason?.message}
        {...register('reason')}
      />
      <div className="sm:col-span-2">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Wird gespeichert …' : 'Sperre anlegen'}
        </Button>
        <p role="status" className="mt-2 text-sm text-slate-700 empty:hidden">
          {saved ?? ''}
        </p>
        {add.isError ? <Alert tone="error">{holdSaveFailedMessage}</Alert> : null}
      </div>
    </form>
  );
}

function HoldList() {
  const holds = useRetentionHolds();
  const lift = useLiftRetentionHold();
  if (holds.isPending) {
    return (
      <p role="status" className="text-slate-600">
        Sperren werden geladen …
      </p>
    );
  }
  if (holds.isError) {
    return (
      <LoadError onRetry={() => holds.refetch()}>
        Die Aufbewahrungssperren konnten nicht geladen werden.
      </LoadError>
    );
  }
  if (holds.data.length === 0) {
    return <p className="text-slate-700">Keine Aufbewahrungssperren.</p>;
  }
  return (
    <>
      <div className="overflow-x-auto">
        <table className="min-w-full text-left text-sm">
          <AdminTableHead
            caption="Aufbewahrungssperren"
            columns={['Kunde', 'Grund', 'Bis', 'Angelegt', 'Aktion']}
          />
          <tbody className="divide-y divide-slate-200">
            {holds.data.map((hold) => (
              <tr key={hold.id}>
                <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                  {customerName(hold)}
                  {hold.users ? (
                    <span className="block font-normal text-slate-600">{hold.users.email}</span>
                  ) : null}
                </th>
                <td className="px-4 py-3">{hold.reason}</td>
                <td className="px-4 py-3 whitespace-nowrap">
                  {hold.until ? shownDay(hold.until) : 'unbefristet'}
                </td>
                <td className="px-4 py-3 whitespace-nowrap">{berlinDateTime(hold.created_at)}</td>
                <td className="px-4 py-3">
                  <Button
                    variant="secondary"
                    disabled={lift.isPending}
                    aria-label={`Sperre für ${customerName(hold)} aufheben`}
                    onClick={() => lift.mutate(hold.id)}
                  >
                    Aufheben
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {lift.isError ? <Alert tone="error">{holdLiftFailedMessage}</Alert> : null}
    </>
  );
}

/**
 * Where a contract is documented, its customer's data must outlive the five years: a hold keeps
 * the customer and their leads out of the daily run until its date.
 */
export function RetentionHolds() {
  return (
    <div className="space-y-4 rounded-lg bg-white p-4 shadow">
      <h3 className="text-lg font-semibold text-slate-900">Aufbewahrungssperren</h3>
      <p className="text-slate-700">
        Kunden mit Sperre werden samt ihren Anfragen nicht automatisch gelöscht, bis das Datum der
        Sperre vorbei ist oder sie aufgehoben wird.
      </p>
      <HoldList />
      <HoldForm />
    </div>
  );
}
