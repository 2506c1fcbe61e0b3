import type { CustomerDataExport } from '../api/person-rights.ts';
import { accessActionLabels } from '../../domain/access-log.ts';
import { berlinMinute, berlinToday } from '../../domain/calendar.ts';
import { leadStatusLabels } from '../../domain/lead-status.ts';

// The two files of a person's data (Art. 15 and 20 DSGVO): the export as JSON, exactly as the
// database gave it (machine-readable), and a German document to read or print, every value
// under its label.

/** Labels of the stored columns; a column without one is shown under its own name. */
const fieldLabels: Record<string, string> = {
  id: 'Nummer',
  first_name: 'Vorname',
  last_name: 'Nachname',
  email: 'E-Mail',
  phone: 'Telefonnummer',
  adress: 'Straße und Hausnummer',
  postcode: 'PLZ',
  city: 'Ort',
  created_at: 'Angelegt am',
  updated_at: 'Zuletzt geändert am',
  client_id: 'Kennung der Anfrage',
  form_id: 'Formular-Nummer',
  form_title: 'Fragebogen',
  user_id: 'Kundennummer',
  source: 'Quelle',
  channel: 'Eingangsweg',
  questionnaire_id: 'Fragebogen-Nummer',
  create_date: 'Begonnen am',
  changed_date: 'Geändert am',
  captured_at: 'Abgeschickt am',
  received_at: 'Eingegangen am',
  waited_offline: 'Wartete offline',
  offer_info: 'Weitere Angebote erwünscht (freiwillig)',
  terms_accepted: 'AGB akzeptiert',
  data_processing_consent: 'Einwilligung in die Datenverarbeitung',
  consent_version: 'Fassung der Einwilligung',
  cookie_consent: 'Cookie-Auswahl',
  cookie_consent_version: 'Fassung der Cookie-Auswahl',
  salutation: 'Anrede',
  title: 'Titel',
  birthdate: 'Geburtsdatum',
  call_time: 'Gewünschte Rückrufzeit',
  existing_customer: 'Bereits Kunde',
  message: 'Nachricht',
  email_sha256: 'E-Mail-Adresse (SHA-256)',
  phone_sha256: 'Telefonnummer (SHA-256)',
  given_at: 'Einwilligung erteilt am',
  lead_deleted_at: 'Anfrage gelöscht am',
  keep_until: 'Aufbewahrt bis',
  status: 'Bearbeitungsstand',
  due_at: 'Fällig am',
  done_at: 'Erledigt am',
  text: 'Text',
  note: 'Notiz',
  reason: 'Grund',
  until: 'Bis',
  staff_edited: 'Von der Agentur geändert',
  create_user: 'Angelegt von',
  changed_user: 'Geändert von',
};

const timeFields = new Set([
  'created_at',
  'updated_at',
  'create_date',
  'changed_date',
  'captured_at',
  'received_at',
  'given_at',
  'lead_deleted_at',
  'keep_until',
  'due_at',
  'done_at',
]);

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => escapes[c] ?? c);

function shownValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '–';
  if (typeof value === 'boolean') return value ? 'Ja' : 'Nein';
  if (typeof value === 'string' && timeFields.has(field)) return berlinMinute(value);
  if (field === 'status' && typeof value === 'string' && value in leadStatusLabels) {
    return leadStatusLabels[value as keyof typeof leadStatusLabels];
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function fieldList(record: Record<string, unknown>, skip: readonly string[] = []): string {
  const rows = Object.entries(record)
    .filter(([field]) => !skip.includes(field))
    .map(
      ([field, value]) =>
        `<dt>${escapeHtml(fieldLabels[field] ?? field)}</dt><dd>${escapeHtml(shownValue(field, value))}</dd>`,
    );
  return `<dl>${rows.join('')}</dl>`;
}

function section(title: string, body: string, empty: string, count: number): string {
  return `<section><h2>${escapeHtml(title)}</h2>${count ? body : `<p>${escapeHtml(empty)}</p>`}</section>`;
}

/**
 * Only the questionnaire asks about further offers (an optional box); the KFZ and contact forms
 * store true without asking (spec), which the document says instead of a bare 'Ja'.
 */
function withOfferInfoNote(lead: Record<string, unknown>): Record<string, unknown> {
  if (lead.source === 'questionnaire' || lead.offer_info !== true) return lead;
  return { ...lead, offer_info: 'Ja (vom Formular ohne Nachfrage gesendet)' };
}

/** The readable document: German, dated in Berlin time, for the screen or the printer. */
export function customerDataDocument(data: CustomerDataExport): string {
  const { customer } = data;
  const name = `${customer.first_name} ${customer.last_name}`;
  const leads = data.leads
    .map((lead) => {
      const answers = lead.answers.length
        ? `<table><caption>Antworten</caption><thead><tr><th scope="col">Frage</th><th scope="col">Antwort</th></tr></thead><tbody>${lead.answers
            .map(
              (answer) =>
                `<tr><td>${escapeHtml(answer.question)}</td><td>${escapeHtml(answer.answer)}</td></tr>`,
            )
            .join('')}</tbody></table>`
        : '<p>Keine Antworten (Anfrage ohne Fragebogen).</p>';
      const history = lead.status_history.length
        ? `<table><caption>Bearbeitungsverlauf</caption><thead><tr><th scope="col">Zeitpunkt</th><th scope="col">Stand</th><th scope="col">Notiz</th></tr></thead><tbody>${lead.status_history
            .map(
              (step) =>
                `<tr><td>${escapeHtml(berlinMinute(step.at))}</td><td>${escapeHtml(leadStatusLabels[step.status])}</td><td>${escapeHtml(step.note ?? '–')}</td></tr>`,
            )
            .join('')}</tbody></table>`
        : '';
      const mails = lead.notification_mails.length
        ? `<p>Benachrichtigung an die Agentur: ${lead.notification_mails
            .map((mail) =>
              escapeHtml(
                mail.sent_at ? `gesendet am ${berlinMinute(mail.sent_at)}` : 'nicht gesendet',
              ),
            )
            .join(', ')} (enthält nur Fragebogen und Namen).</p>`
        : '';
      const heading = `${lead.form_title ?? 'Anfrage'} vom ${berlinMinute(lead.received_at)}`;
      return `<article><h3>${escapeHtml(heading)}</h3>${fieldList(withOfferInfoNote(lead), ['answers', 'status_history', 'notification_mails'])}${answers}${history}${mails}</article>`;
    })
    .join('');
  const notes = data.notes
    .map((note) =>
      fieldList({ created_at: note.created_at, updated_at: note.updated_at, note: note.note }),
    )
    .join('');
  const followUps = data.follow_ups
    .map((followUp) =>
      fieldList({
        due_at: followUp.due_at,
        text: followUp.text,
        created_at: followUp.created_at,
        done_at: followUp.done_at,
      }),
    )
    .join('');
  const holds = data.retention_holds
    .map((hold) =>
      fieldList({ reason: hold.reason, until: hold.until, created_at: hold.created_at }),
    )
    .join('');
  const consents = data.consent_records.map((record) => fieldList(record)).join('');
  const messages = data.support_messages
    .map((entry) => fieldList({ created_at: entry.created_at, message: entry.message }))
    .join('');
  const log = `<table><caption>Zugriffe</caption><thead><tr><th scope="col">Zeitpunkt</th><th scope="col">Vorgang</th></tr></thead><tbody>${data.access_log
    .map(
      (entry) =>
        `<tr><td>${escapeHtml(berlinMinute(entry.at))}</td><td>${escapeHtml(accessActionLabels[entry.action])}</td></tr>`,
    )
    .join('')}</tbody></table>`;

  return `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>Gespeicherte Daten: ${escapeHtml(name)}</title>
<style>
body { font-family: system-ui, sans-serif; color: #0f172a; max-width: 48rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
dl { display: grid; grid-template-columns: 16rem 1fr; gap: 0.25rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
caption { text-align: left; font-weight: 600; }
th, td { border: 1px solid #94a3b8; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
article { border-top: 1px solid #cbd5e1; padding-top: 0.5rem; break-inside: avoid; }
@media print { body { margin: 0; max-width: none; } }
</style>
</head>
<body>
<header>
<h1>Gespeicherte Daten zu ${escapeHtml(name)}</h1>
<p>Auskunft nach Art. 15 DSGVO. Stand: ${escapeHtml(berlinMinute(data.exported_at))} Uhr (Berlin)</p>
</header>
<main>
${section('Kundendaten', fieldList(customer), '', 1)}
${section('Anfragen', leads, 'Keine Anfragen gespeichert.', data.leads.length)}
${section('Notizen der Agentur', notes, 'Keine Notizen gespeichert.', data.notes.length)}
${section('Wiedervorlagen', followUps, 'Keine Wiedervorlagen gespeichert.', data.follow_ups.length)}
${section('Aufbewahrung über die Frist hinaus', holds, 'Keine Aufbewahrung über die Frist hinaus vereinbart.', data.retention_holds.length)}
${section('Aufbewahrte Einwilligungsnachweise (§ 7a UWG)', consents, 'Keine aufbewahrten Einwilligungsnachweise.', data.consent_records.length)}
${section('Interne Support-Nachrichten, die die Person nennen', messages, 'Keine Support-Nachricht nennt die Person.', data.support_messages.length)}
${section('Zugriffsprotokoll', log, 'Keine Zugriffe protokolliert.', data.access_log.length)}
</main>
</body>
</html>
`;
}

/** File names of the two files, e.g. 'kundendaten-42-2026-11-25.json'. */
export function customerDataFileName(
  customerId: number,
  extension: 'json' | 'html',
  now = new Date(),
): string {
  return `kundendaten-${customerId}-${berlinToday(now)}.${extension}`;
}
