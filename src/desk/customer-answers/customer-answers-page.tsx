import { useState, type ReactNode } from 'react';
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
import { Button } from '../../ui/button.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { DeskScreen } from '../shared/desk-screen.tsx';
import { LeadStatusControl, LeadStatusHistory, type HistoryView } from './lead-status-panel.tsx';
import { FollowUpDialog, type FollowUpSubject } from '../shared/follow-up-dialog.tsx';
import {
  answerText,
  capturedDiffers,
  cookieChoiceLabel,
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
    <div className="grid gap-1 py-2 sm:grid-cols-[16rem_1fr] sm:gap-4">
      <dt className="font-medium text-slate-700">
        {props.term}
        {props.note ? (
          <span className="block text-sm font-normal text-amber-800">{props.note}</span>
        ) : null}
      </dt>
      <dd className="text-slate-900 whitespace-pre-wrap">{props.children}</dd>
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

function ResponseSection(props: {
  customerId: number;
  response: CustomerResponse;
  history: HistoryView;
  onFollowUp: (label: string) => void;
}) {
  const { response, onFollowUp } = props;
  const headingId = `anfrage-${response.id}`;
  const title = responseTitle(response);
  const details = requestDetails(response);
  return (
    <section aria-labelledby={headingId} className="rounded-lg bg-white p-6 shadow">
      <h2 id={headingId} className="text-xl font-bold text-slate-900">
        {title}{' '}
        <span className="text-base font-normal text-slate-700">
          vom <time dateTime={response.received_at}>{berlinDateTime(response.received_at)}</time>
        </span>
      </h2>
      <LeadStatusControl customerId={props.customerId} response={response} />
      <LeadStatusHistory response={response} history={props.history} />
      <Button
        variant="secondary"
        className="mt-3"
        aria-describedby={headingId}
        onClick={() => onFollowUp(`${title} vom ${berlinDateTime(response.received_at)}`)}
      >
        Wiedervorlage anlegen
      </Button>
      <dl className="mt-3 divide-y divide-slate-100">
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
      </dl>

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

      <h3 className="mt-5 text-lg font-semibold text-slate-900">Einwilligungen</h3>
      <dl className="mt-1 divide-y divide-slate-100">
        <Entry term="AGB akzeptiert">{yesNo(response.terms_accepted)}</Entry>
        <Entry term="Datenschutz eingewilligt">{yesNo(response.data_processing_consent)}</Entry>
        <Entry term="Version der Einwilligungstexte">
          {response.consent_version ?? 'Nicht erfasst'}
        </Entry>
        <Entry term="Cookie-Auswahl">
          {cookieChoiceLabel(response.cookie_consent)}
          {response.cookie_consent_version ? ` (Version ${response.cookie_consent_version})` : null}
        </Entry>
        <Entry term="Angebot gewünscht">{yesNo(response.offer_info)}</Entry>
      </dl>

      {response.answers.length ? (
        <>
          <h3 className="mt-5 text-lg font-semibold text-slate-900">Antworten</h3>
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
        <p className="mt-5 text-slate-700">
          Zu diesem Fragebogen wurden keine Antworten gespeichert.
        </p>
      ) : null}
    </section>
  );
}

function Responses({ customerId }: { customerId: number }) {
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
  const [followUp, setFollowUp] = useState<FollowUpSubject | null>(null);
  if (responses.isPending) return <Loading>Antworten werden geladen …</Loading>;
  if (responses.isError)
    return (
      <LoadError onRetry={responses.refetch}>Die Antworten konnten nicht geladen werden.</LoadError>
    );
  if (responses.data.length === 0) {
    return (
      <p role="status" className="rounded-lg bg-white p-8 text-center text-slate-700 shadow">
        Noch keine Antworten von diesem Kunden.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      {responses.data.map((response) => (
        <ResponseSection
          key={response.id}
          customerId={customerId}
          response={response}
          history={history}
          onFollowUp={(label) => setFollowUp({ customerId, responseId: response.id, label })}
        />
      ))}
      <FollowUpDialog subject={followUp} onClose={() => setFollowUp(null)} />
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
        <Responses customerId={id} />
      )}
    </DeskScreen>
  );
}
