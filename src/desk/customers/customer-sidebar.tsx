import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useCustomerNewestLead } from '../api/customer-newest-lead.ts';
import { useCustomer, useUpdateCustomer, type Customer } from '../api/customers.ts';
import { errorCode } from '../api/staff.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { leadContactChanges, leadTime } from '../../domain/lead-contact.ts';
import { deskCustomerAnswersPath } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/form-fields.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { useZodForm } from '../../ui/use-zod-form.ts';
import {
  customerFields,
  customerFormInput,
  customerFormSchemaFor,
  customerSavedMessage,
  customerSaveProblem,
  type CustomerFormValues,
} from './customer-form.ts';
import { useDiscardGuard, type Leave } from '../shared/unsaved-changes.tsx';
import { viewParams } from './customers-view.ts';
import { LeadChangesNotice } from './lead-changes-notice.tsx';
import { CustomerPrivacyActions } from './customer-privacy-actions.tsx';
import { CustomerFollowUps } from '../shared/customer-follow-ups.tsx';
import { CustomerNotes } from '../shared/customer-notes.tsx';
import { CustomerContactLinks } from './customer-contact-links.tsx';

/** What the answers page's back link returns to: this list as it was. */
export interface CustomersListState {
  customersSearch: string;
}

function CustomerForm(props: {
  customer: Customer;
  onDirtyChange: (dirty: boolean) => void;
  requestLeave: Leave;
}) {
  const { customer, onDirtyChange } = props;
  const navigate = useNavigate();
  const location = useLocation();
  const update = useUpdateCustomer();
  const [outcome, setOutcome] = useState<{ saved: true } | { problem: string } | null>(null);
  const newestLead = useCustomerNewestLead(customer.id);
  const changes = newestLead.data ? leadContactChanges(customer, newestLead.data) : [];
  const [takenOver, setTakenOver] = useState(false);
  // What the record holds: such a value always passes, even where today's rules would refuse it.
  const stored = useRef(customerFormInput(customer));
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    setFocus,
    formState: { errors, isDirty, isSubmitting },
  } = useZodForm(() => customerFormSchemaFor(stored.current), {
    defaultValues: customerFormInput(customer),
  });

  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  const submit = async (values: CustomerFormValues) => {
    setOutcome(null);
    try {
      const saved = await update.mutateAsync({ id: customer.id, fields: customerFields(values) });
      // The form shows the row as stored (e.g. the e-mail lower-cased by the rules).
      stored.current = customerFormInput(saved);
      reset(stored.current);
      setTakenOver(false);
      setOutcome({ saved: true });
    } catch (error) {
      // The input stays; the message tells why (no customer data in the log).
      const problem = customerSaveProblem(error);
      if (errorCode(error) === '23505') setError('email', { message: problem });
      setOutcome({ problem });
    }
  };

  // The lead's details go into the form, not straight into the record: the lead may be anyone's
  // (a public form takes any name for any address), so staff look at them and save as usual,
  // and can still change or discard them. Focus moves to the first field taken over.
  const takeOver = () => {
    for (const change of changes) {
      setValue(change.field, change.after, { shouldDirty: true, shouldValidate: true });
    }
    setTakenOver(true);
    setOutcome(null);
    if (changes[0]) setFocus(changes[0].field);
  };

  const answersPath = deskCustomerAnswersPath(customer.id);
  // The list as it is, without the open sidebar: the way back shows the table.
  const listQuery = new URLSearchParams(location.search);
  listQuery.delete(viewParams.selected);
  const listState: CustomersListState = {
    customersSearch: listQuery.size ? `?${listQuery.toString()}` : '',
  };

  return (
    <form
      noValidate
      aria-label="Kundendaten bearbeiten"
      onSubmit={(event) => void handleSubmit(submit)(event)}
      className="flex flex-col gap-4"
    >
      {newestLead.data && changes.length > 0 ? (
        <LeadChangesNotice
          typedAt={leadTime(newestLead.data)}
          changes={changes}
          takenOver={takenOver}
          onTakeOver={takeOver}
        />
      ) : null}
      <TextField
        label="Vorname"
        autoComplete="off"
        required
        error={errors.first_name?.message}
        {...register('first_name')}
      />
      <TextField
        label="Nachname"
        autoComplete="off"
        required
        error={errors.last_name?.message}
        {...register('last_name')}
      />
      <TextField
        label="E-Mail"
        type="email"
        autoComplete="off"
        required
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        label="Telefonnummer"
        type="tel"
        autoComplete="off"
        error={errors.phone?.message}
        {...register('phone')}
      />
      <TextField
        label="Straße und Hausnummer"
        autoComplete="off"
        error={errors.adress?.message}
        {...register('adress')}
      />
      <div className="grid grid-cols-[8rem_1fr] gap-4">
        <TextField
          label="PLZ"
          inputMode="numeric"
          autoComplete="off"
          error={errors.postcode?.message}
          {...register('postcode')}
        />
        <TextField
          label="Ort"
          autoComplete="off"
          error={errors.city?.message}
          {...register('city')}
        />
      </div>
      <TextField
        label="Angelegt am"
        disabled
        value={berlinDateTime(customer.created_at)}
        readOnly
      />
      {outcome && 'saved' in outcome && !isDirty ? (
        <Alert tone="info">{customerSavedMessage}</Alert>
      ) : null}
      {outcome && 'problem' in outcome ? <Alert tone="error">{outcome.problem}</Alert> : null}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Speichern …' : 'Speichern'}
        </Button>
        <Button
          variant="secondary"
          onClick={() => props.requestLeave(() => void navigate(answersPath, { state: listState }))}
        >
          Antworten
        </Button>
      </div>
    </form>
  );
}

function CustomerDetails(props: {
  id: number;
  onDirtyChange: (dirty: boolean) => void;
  requestLeave: Leave;
  onErased: () => void;
}) {
  const customer = useCustomer(props.id);
  if (customer.isPending) {
    return (
      <p role="status" className="text-slate-700">
        Kundendaten werden geladen …
      </p>
    );
  }
  if (customer.isError) {
    return (
      <LoadError framed={false} onRetry={customer.refetch}>
        Die Kundendaten konnten nicht geladen werden.
      </LoadError>
    );
  }
  if (!customer.data) {
    return (
      <Alert tone="info">
        Diesen Kunden gibt es nicht (mehr). Vielleicht wurde er gelöscht oder der Link ist veraltet.
      </Alert>
    );
  }
  return (
    <>
      <CustomerContactLinks customer={customer.data} />
      <CustomerForm
        key={customer.data.id}
        customer={customer.data}
        onDirtyChange={props.onDirtyChange}
        requestLeave={props.requestLeave}
      />
      <CustomerFollowUps
        customerId={customer.data.id}
        customerName={`${customer.data.first_name} ${customer.data.last_name}`}
      />
      <CustomerNotes customerId={customer.data.id} />
      <CustomerPrivacyActions customer={customer.data} onErased={props.onErased} />
    </>
  );
}

/**
 * 'Kunden Details': a panel from the right with the customer's personal data. Closing with
 * unsaved changes asks first, so an edit is never lost by a stray click or Escape.
 */
export function CustomerSidebar(props: {
  customerId: number | null;
  onClose: () => void;
  /** After an erasure: the sidebar has nothing left to show and closes without asking. */
  onErased: () => void;
}) {
  // The panel keeps showing its customer while it slides out.
  const [shownId, setShownId] = useState(props.customerId);
  if (props.customerId !== null && props.customerId !== shownId) setShownId(props.customerId);
  const [dirty, setDirty] = useState(false);
  const { requestLeave, dialog } = useDiscardGuard(dirty, 'an diesem Kunden', () =>
    setDirty(false),
  );

  return (
    <Dialog
      open={props.customerId !== null}
      onClose={() => requestLeave(props.onClose)}
      className="relative z-50"
    >
      <DialogBackdrop
        transition
        className="fixed inset-0 bg-slate-900/30 transition-opacity duration-200 data-closed:opacity-0"
      />
      <div className="fixed inset-0 flex justify-end">
        <DialogPanel
          transition
          className="flex h-full w-full max-w-md flex-col overflow-y-auto bg-white shadow-xl transition-transform duration-200 data-closed:translate-x-full"
        >
          <div className="flex items-center justify-between border-b border-slate-200 px-6 py-4">
            <DialogTitle as="h2" className="text-xl font-bold text-slate-900">
              Kunden Details
            </DialogTitle>
            <Button variant="ghost" onClick={() => requestLeave(props.onClose)}>
              Schließen
            </Button>
          </div>
          <div className="px-6 py-5">
            {shownId !== null ? (
              <CustomerDetails
                key={shownId}
                id={shownId}
                onDirtyChange={setDirty}
                requestLeave={requestLeave}
                onErased={() => {
                  setDirty(false);
                  props.onErased();
                }}
              />
            ) : null}
          </div>
          {dialog}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
