import type { ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import {
  useCustomer,
  useCustomerResponses,
  type Customer,
  type CustomerResponse,
} from '../api/customers.ts';
import { useLeadActivity, useLeadStatusHistory } from '../api/lead-status.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { leadContactFields, leadContactLabels } from '../../domain/lead-contact.ts';
import { deskCustomerAnswersPath, deskPaths } from '../../domain/routes.ts';
import { Alert } from '../../ui/alert.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { DeskScreen } from '../shared/desk-screen.tsx';
import { LeadStatusControl, LeadStatusHistory, type HistoryView } from './lead-status-panel.tsx';
import { mailtoHref, telHref } from '../../domain/contact-links.ts';
import { CustomerFollowUps } from '../shared/customer-follow-ups.tsx';
import { CustomerNotes } from '../shared/customer-notes.tsx';
import { panelClass } from '../shared/panel.ts';
import {
  answerText,
  capturedDiffers,
  cookieChoiceLabel,
  offerInfoEntry,
  requestDetails,
  responseTitle,
  sourceLabel,
  yesNo,
} from './response-labels.ts';

function Loading({ children }: { children: string }) {
  return (
    <p role="status" className="p-8 text-center text-slate-600">
      {children}
    </p>
  );
}

function Entry(props: { term: string; note?: string | undefined; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[14rem_minmax(0,1fr)] sm:gap-4">
      <dt className="font-medium text-slate-700">
        {props.term}
        {props.note ? (
          <span className="block text-sm font-normal text-amber-800">{props.note}</span>
        ) : null}
      </dt>
      <dd className="whitespace-pre-wrap text-slate-900 [overflow-wrap:anywhere]">
        {props.children}
      </dd>
    </div>
  );
}

function questionNote(answer: CustomerResponse['answers'][number]): string | undefined {
  if (!answer.questions) return 'Frage inzwischen gelöscht';
  if (answer.questions.question !== answer.question_text) {
    return `Frage inzwischen geändert, heute: „${answer.questions.question}“`;
  }
  return undefined;
}

/** A lead as the page names it: 'Tabaluga vom 20.11.2026, 16:30'. */
const leadLabel = (response: CustomerResponse) =>
  `${responseTitle(response)} vom ${berlinDateTime(response.received_at)}`;

/** What the visitor sent with one lead: the answers first, then what else came with them. */
function ResponseSection(props: { response: CustomerResponse }) {
  const { response } = props;
  const headingId = `anfrage-${response.id}`;
  const details = requestDetails(response);
  const offerInfo = offerInfoEntry(response);
  return (
    <section aria-labelledby={headingId} className={panelClass}>
      <h2 id={headingId} className="text-xl font-bold text-slate-900">
        {responseTitle(response)}{' '}
        <span className="text-base font-normal text-slate-700">
          vom <time dateTime={response.received_at}>{berlinDateTime(response.received_at)}</time>
        </span>
      </h2>

      {response.answers.length ? (
        <>
          <h3 className="mt-4 text-lg font-semibold text-slate-900">Antworten</h3>
          <dl className="mt-1 divide-y divide-slate-100">
            {response.answers.map((answer) => (
              // What this visitor was asked: the text stored with the answer, not today's wording.
              <Entry key={answer.id} term={answer.question_text} note={questionNote(answer)}>
                {answerText(answer.answer)}
              </Entry>
            ))}
          </dl>
        </>
      ) : response.source === 'questionnaire' ? (
        // KFZ and contact requests ask no questions; a questionnaire without answers is unusual.
        <p className="mt-4 text-slate-700">
          Zu diesem Fragebogen wurden keine Antworten gespeichert.
        </p>
      ) : null}

      {details.length ? (
        <>
          <h3 className="mt-5 text-lg font-semibold text-slate-900">Angaben zur Anfrage</h3>
          <dl className="mt-1 divide-y divide-slate-100">
            {details.map((detail) => (
              <Entry key={detail.label} term={detail.label}>
                {detail.text}
              </Entry>
            ))}
          </dl>
        </>
      ) : null}

      {/* What the sender typed with this lead; the customer record may say otherwise (a lead
          never changes a known customer by itself). */}
      <h3 className="mt-5 text-lg font-semibold text-slate-900">Kontaktdaten dieser Anfrage</h3>
      <dl className="mt-1 divide-y divide-slate-100">
        {leadContactFields.map((field) => (
          <Entry key={field} term={leadContactLabels[field]}>
            {response[field] ?? 'Nicht angegeben'}
          </Entry>
        ))}
      </dl>

      <h3 className="mt-5 text-lg font-semibold text-slate-900">Herkunft und Einwilligungen</h3>
      <dl className="mt-1 divide-y divide-slate-100">
        <Entry term="Quelle">{sourceLabel(response)}</Entry>
        {capturedDiffers(response) && response.captured_at ? (
          <>
            <Entry term="Erfasst am">
              <time dateTime={response.captured_at}>{berlinDateTime(response.captured_at)}</time>
            </Entry>
            <Entry term="Eingegangen am">
              <time dateTime={response.received_at}>{berlinDateTime(response.received_at)}</time>
            </Entry>
          </>
        ) : null}
        {offerInfo ? <Entry term={offerInfo.label}>{offerInfo.text}</Entry> : null}
        <Entry term="AGB akzeptiert">{yesNo(response.terms_accepted)}</Entry>
        <Entry term="Datenschutz eingewilligt">{yesNo(response.data_processing_consent)}</Entry>
        <Entry term="Version der Einwilligungstexte">
          {response.consent_version ?? 'Nicht erfasst'}
        </Entry>
        <Entry term="Cookie-Auswahl">
          {cookieChoiceLabel(response.cookie_consent)}
          {response.cookie_consent_version ? ` (Version ${response.cookie_consent_version})` : null}
        </Entry>
      </dl>
    </section>
  );
}

/** The customer's record as saved: call or write in one click; edited in the list's sidebar. */
function ContactCard({ customer }: { customer: Customer }) {
  const tel = telHref(customer.phone);
  const mailto = mailtoHref(customer.email);
  const address = [customer.adress, [customer.postcode, customer.city].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return (
    <section aria-labelledby="kontaktdaten" className={panelClass}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="kontaktdaten" className="text-lg font-semibold text-slate-900">
          Kontaktdaten
        </h2>
        <Link
          to={`${deskPaths.customers}?id=${customer.id}`}
          className="inline-flex min-h-11 items-center font-medium text-brand-800 underline underline-offset-2"
        >
          Kundendaten bearbeiten
        </Link>
      </div>
      <dl className="divide-y divide-slate-100">
        <Entry term="Name">{fullName(customer)}</Entry>
        <Entry term="Telefonnummer">
          {tel ? (
            <a href={tel} className={linkClass}>
              {customer.phone}
            </a>
          ) : (
            'Nicht angegeben'
          )}
        </Entry>
        <Entry term="E-Mail">
          {mailto ? (
            <a href={mailto} className={linkClass}>
              {customer.email}
            </a>
          ) : (
            customer.email
          )}
        </Entry>
        <Entry term="Anschrift">{address || 'Nicht angegeben'}</Entry>
      </dl>
    </section>
  );
}

const linkClass = 'font-medium text-brand-800 underline underline-offset-2';

/** The right column's card for each lead's status (and, per lead, the history below). */
function StatusCard(props: { customerId: number; responses: CustomerResponse[] }) {
  const several = props.responses.length > 1;
  return (
    <section aria-labelledby="lead-status" className={panelClass}>
      <h2 id="lead-status" className="text-lg font-semibold text-slate-900">
        Status
      </h2>
      {props.responses.map((response, index) => (
        <div
          key={response.id}
          className={index > 0 ? 'mt-5 border-t border-slate-200 pt-4' : undefined}
        >
          {several ? (
            <h3 className="mt-2 font-semibold text-slate-900">{leadLabel(response)}</h3>
          ) : null}
          <LeadStatusControl
            customerId={props.customerId}
            response={response}
            label={several ? leadLabel(response) : undefined}
          />
        </div>
      ))}
    </section>
  );
}

function HistoryCard(props: { responses: CustomerResponse[]; history: HistoryView }) {
  const several = props.responses.length > 1;
  return (
    <section aria-labelledby="lead-verlauf" className={panelClass}>
      <h2 id="lead-verlauf" className="text-lg font-semibold text-slate-900">
        Verlauf
      </h2>
      {props.responses.map((response) => (
        <LeadStatusHistory
          key={response.id}
          response={response}
          history={props.history}
          title={several ? leadLabel(response) : undefined}
        />
      ))}
    </section>
  );
}

/**
 * Two columns from a laptop's width on: what the visitor sent (contact details, then each lead
 * with its answers first) on the left; what the office does with it (status, follow-ups, notes,
 * history) on the right. Each change there reads again what it touched, so both sides stay
 * current without a reload.
 */
function LeadPage({ customer }: { customer: Customer }) {
  const customerId = customer.id;
  const responses = useCustomerResponses(customerId);
  const statusHistory = useLeadStatusHistory(customerId);
  const activity = useLeadActivity(customerId);
  const history: HistoryView = {
    data: statusHistory.data,
    activity: activity.data,
    isPending: statusHistory.isPending || activity.isPending,
    isError: statusHistory.isError || activity.isError,
    refetch: () => {
      void statusHistory.refetch();
      void activity.refetch();
    },
  };
  const leads = responses.data ?? [];
  // A follow-up made here belongs to the newest lead, so that lead's 'Verlauf' lists it.
  const newest = leads[0];
  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="flex min-w-0 flex-col gap-6">
        <ContactCard customer={customer} />
        {responses.isPending ? (
          <Loading>Antworten werden geladen …</Loading>
        ) : responses.isError ? (
          <LoadError onRetry={responses.refetch}>
            Die Antworten konnten nicht geladen werden.
          </LoadError>
        ) : leads.length === 0 ? (
          <p role="status" className="rounded-lg bg-white p-8 text-center text-slate-700 shadow">
            Noch keine Antworten von diesem Kunden.
          </p>
        ) : (
          leads.map((response) => <ResponseSection key={response.id} response={response} />)
        )}
      </div>
      <div className="flex min-w-0 flex-col gap-6">
        {leads.length ? <StatusCard customerId={customerId} responses={leads} /> : null}
        <CustomerFollowUps
          card
          customerId={customerId}
          customerName={fullName(customer)}
          lead={newest ? { responseId: newest.id, label: leadLabel(newest) } : undefined}
        />
        <CustomerNotes card customerId={customerId} />
        {leads.length ? <HistoryCard responses={leads} history={history} /> : null}
      </div>
    </div>
  );
}

function BackLink() {
  // Coming from the list, the way back restores its search, page and order.
  const state = useLocation().state as { customersSearch?: unknown } | null;
  const search = typeof state?.customersSearch === 'string' ? state.customersSearch : '';
  return (
    <Link
      to={`${deskPaths.customers}${search}`}
      className="mb-6 inline-flex min-h-11 items-center font-semibold text-brand-800 underline"
    >
      ← Zurück zu den Kunden
    </Link>
  );
}

const fullName = (customer: Customer) => `${customer.first_name} ${customer.last_name}`;

function headingFor(customer: ReturnType<typeof useCustomer>, known: boolean): string {
  if (!known || customer.data === null) return 'Kunde nicht gefunden';
  return customer.data ? `Antworten von ${fullName(customer.data)}` : 'Antworten';
}

/**
 * Everything a customer has sent, read only (staff edit only personal data, spec), with each
 * lead's status, its change and its history.
 */
export function CustomerAnswersPage() {
  const idText = useParams().id ?? '';
  const known = /^[1-9]\d{0,8}$/.test(idText);
  const id = known ? Number(idText) : null;
  const customer = useCustomer(id);

  return (
    <DeskScreen
      heading={headingFor(customer, known)}
      meta={{
        title: 'Antworten – Survey Desk',
        description:
          'Alle Anfragen eines Kunden mit Fragebogen, Datum, Quelle, Einwilligung und jeder Antwort.',
        path: deskCustomerAnswersPath(id ?? 0),
      }}
    >
      <BackLink />
      {id === null || customer.data === null ? (
        <Alert tone="info">
          Diesen Kunden gibt es nicht (mehr). Bitte wähle ihn in der Kundenliste aus.
        </Alert>
      ) : customer.isPending ? (
        <Loading>Kunde wird geladen …</Loading>
      ) : customer.isError ? (
        <LoadError onRetry={customer.refetch}>
          Die Kundendaten konnten nicht geladen werden.
        </LoadError>
      ) : (
        <LeadPage customer={customer.data} />
      )}
    </DeskScreen>
  );
}
