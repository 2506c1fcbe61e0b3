import { useState } from 'react';
import type { Customer } from '../api/customers.ts';
import { useCanExport } from '../api/export-settings.ts';
import {
  useCustomerDataExport,
  useEraseCustomer,
  useErasurePreview,
  type ErasurePreview,
} from '../api/person-rights.ts';
import { useMyRole } from '../api/staff.ts';
import { saveBlob } from '../api/uploads.ts';
import { berlinDateTime } from '../../domain/calendar.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { Modal, ModalActions, ModalDescription, ModalTitle } from '../../ui/modal.tsx';
import { AccessLogList } from '../shared/access-log-list.tsx';
import { customerDataDocument, customerDataFileName } from './customer-data-document.ts';

// The customer's data-protection actions in the sidebar: the export of everything stored about
// the person (Art. 15, 20 DSGVO), their erasure (Art. 17, admins only) and the access log.

type ExportKind = 'json' | 'html';

const exportFailedMessage =
  'Der Export konnte nicht erstellt werden. Bitte versuche es erneut oder wende dich an den Support.';

function DataExport({ customerId }: { customerId: number }) {
  const canExport = useCanExport();
  const exportData = useCustomerDataExport();
  const [done, setDone] = useState<ExportKind | null>(null);

  const download = (kind: ExportKind) => {
    setDone(null);
    exportData.mutate(customerId, {
      onSuccess: (data) => {
        const blob =
          kind === 'json'
            ? new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' })
            : new Blob([customerDataDocument(data)], { type: 'text/html;charset=utf-8' });
        saveBlob(blob, customerDataFileName(customerId, kind));
        setDone(kind);
      },
    });
  };

  return (
    <section className="space-y-3">
      <h3 id="daten-exportieren" className="text-lg font-semibold text-slate-900">
        Daten exportieren
      </h3>
      <p className="text-sm text-slate-700">
        Alles, was über diese Person gespeichert ist (Kundendaten, Anfragen mit Antworten und
        Einwilligungen, Support-Nachrichten, Zugriffsprotokoll): als JSON-Datei zur Übertragung und
        als Dokument zum Lesen oder Drucken. Der Export wird protokolliert.
      </p>
      {canExport.data === true ? (
        <div className="flex flex-wrap gap-3">
          <Button
            variant="secondary"
            disabled={exportData.isPending}
            onClick={() => download('json')}
          >
            JSON-Datei herunterladen
          </Button>
          <Button
            variant="secondary"
            disabled={exportData.isPending}
            onClick={() => download('html')}
          >
            Dokument herunterladen
          </Button>
        </div>
      ) : canExport.isPending ? null : (
        <p className="text-sm text-slate-700">
          Exportieren dürfen Admins und Mitarbeitende, denen ein Admin den Export erlaubt hat (Seite
          Mitarbeiter).
        </p>
      )}
      {exportData.isPending ? (
        <p role="status" className="text-slate-700">
          Export wird erstellt …
        </p>
      ) : null}
      {done ? (
        <Alert tone="info">
          {done === 'json' ? 'Die JSON-Datei' : 'Das Dokument'} wurde heruntergeladen.
        </Alert>
      ) : null}
      {exportData.isError ? <Alert tone="error">{exportFailedMessage}</Alert> : null}
    </section>
  );
}

function ErasureSummary({ preview }: { preview: ErasurePreview }) {
  return (
    <div className="space-y-3 text-slate-800">
      <p className="font-semibold">Gelöscht werden:</p>
      <ul className="list-disc pl-6">
        <li>der Kundendatensatz mit allen Kontaktdaten,</li>
        <li>
          {preview.leads} {preview.leads === 1 ? 'Anfrage' : 'Anfragen'} mit {preview.answers}{' '}
          {preview.answers === 1 ? 'Antwort' : 'Antworten'},
        </li>
        <li>
          {preview.notes} {preview.notes === 1 ? 'Notiz' : 'Notizen'}, {preview.follow_ups}{' '}
          {preview.follow_ups === 1 ? 'Wiedervorlage' : 'Wiedervorlagen'} und{' '}
          {preview.status_changes}{' '}
          {preview.status_changes === 1 ? 'Statusänderung' : 'Statusänderungen'} der Agentur,
        </li>
        <li>
          {preview.mails_waiting}{' '}
          {preview.mails_waiting === 1
            ? 'wartende Benachrichtigung'
            : 'wartende Benachrichtigungen'}{' '}
          über neue Anfragen und {preview.files} Dateien (Survey Desk speichert keine Dateien zu
          Personen),
        </li>
        <li>
          Name, E-Mail-Adresse und Telefonnummer in {preview.support_messages}{' '}
          {preview.support_messages === 1 ? 'Support-Nachricht' : 'Support-Nachrichten'} und in
          protokollierten Suchbegriffen (ersetzt durch „[gelöscht]“).
        </li>
      </ul>
      <p className="font-semibold">Aufbewahrt werden:</p>
      <ul className="list-disc pl-6">
        <li>
          {preview.consent_records_kept}{' '}
          {preview.consent_records_kept === 1 ? 'Einwilligungsnachweis' : 'Einwilligungsnachweise'}{' '}
          (§ 7a UWG) ohne Namen, E-Mail-Adresse und Telefonnummer nur als Prüfwert (SHA-256), bis{' '}
          {berlinDateTime(preview.consent_kept_until)}: der Nachweis, dass Werbung erlaubt war, muss
          fünf Jahre aufbewahrt werden.
        </li>
        <li>
          der Nachweis der Löschung (wer, wann, Kundennummer, Anzahl) und das Zugriffsprotokoll,
          beide ohne personenbezogene Daten des Kunden.
        </li>
        <li>die Zahlen der Analyse, die keine Person erkennen lassen.</li>
      </ul>
    </div>
  );
}

function ErasureDialog(props: {
  customer: Customer;
  open: boolean;
  onClose: () => void;
  onErased: () => void;
}) {
  const preview = useErasurePreview(props.customer.id, props.open);
  const erase = useEraseCustomer();
  const close = () => {
    erase.reset();
    props.onClose();
  };

  return (
    <Modal open={props.open} onClose={close} wide>
      <ModalTitle>Kunde löschen?</ModalTitle>
      <ModalDescription>
        {props.customer.first_name} {props.customer.last_name} ({props.customer.email}) wird
        endgültig gelöscht. Das kann nicht rückgängig gemacht werden.
      </ModalDescription>
      {preview.isPending ? (
        <p role="status" className="text-slate-700">
          Es wird gezählt, was gelöscht wird …
        </p>
      ) : preview.isError ? (
        <LoadError framed={false} onRetry={preview.refetch}>
          Es konnte nicht ermittelt werden, was gelöscht wird.
        </LoadError>
      ) : (
        <ErasureSummary preview={preview.data} />
      )}
      {erase.isError ? (
        <div className="mt-4">
          <Alert tone="error">
            Der Kunde konnte nicht gelöscht werden. Es wurde nichts gelöscht; bitte versuche es
            erneut.
          </Alert>
        </div>
      ) : null}
      <ModalActions className="mt-6">
        {/* The harmless choice first: Enter right after opening erases nothing. */}
        <Button variant="secondary" onClick={close} data-autofocus>
          Abbrechen
        </Button>
        <button
          type="button"
          disabled={erase.isPending || !preview.isSuccess}
          onClick={() =>
            erase.mutate(props.customer.id, {
              onSuccess: () => {
                props.onClose();
                props.onErased();
              },
            })
          }
          className="inline-flex min-h-11 items-center justify-center rounded-lg bg-red-700 px-5 py-2.5 font-semibold text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-slate-400"
        >
          {erase.isPending ? 'Wird gelöscht …' : 'Endgültig löschen'}
        </button>
      </ModalActions>
    </Modal>
  );
}

function AccessLogSection({ customerId }: { customerId: number }) {
  const [shown, setShown] = useState(false);
  return (
    <section aria-labelledby="zugriffsprotokoll" className="space-y-3">
      <h3 id="zugriffsprotokoll" className="text-lg font-semibold text-slate-900">
        Zugriffsprotokoll
      </h3>
      <Button variant="secondary" aria-expanded={shown} onClick={() => setShown(!shown)}>
        {shown ? 'Zugriffsprotokoll ausblenden' : 'Zugriffsprotokoll anzeigen'}
      </Button>
      {shown ? (
        <AccessLogList subject={{ customerId }} caption="Zugriffe auf die Daten dieses Kunden" />
      ) : null}
    </section>
  );
}

/** Below the customer's form: export for everyone at the desk; erasure and the log for admins. */
export function CustomerPrivacyActions(props: { customer: Customer; onErased: () => void }) {
  const { data: role } = useMyRole();
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="mt-8 space-y-6 border-t border-slate-200 pt-6">
      <DataExport customerId={props.customer.id} />
      {role === 'admin' ? (
        <>
          <section aria-labelledby="kunde-loeschen" className="space-y-3">
            <h3 id="kunde-loeschen" className="text-lg font-semibold text-slate-900">
              Kunde löschen
            </h3>
            <p className="text-sm text-slate-700">
              Löscht die Person mit allen Anfragen (Art. 17 DSGVO). Vorher wird angezeigt, was
              gelöscht und was aufbewahrt wird.
            </p>
            <button
              type="button"
              onClick={() => setConfirming(true)}
              className="inline-flex min-h-11 items-center justify-center rounded-lg border border-red-700 bg-white px-5 py-2.5 font-semibold text-red-800 hover:bg-red-50"
            >
              Kunde löschen
            </button>
          </section>
          <ErasureDialog
            customer={props.customer}
            open={confirming}
            onClose={() => setConfirming(false)}
            onErased={props.onErased}
          />
          <AccessLogSection customerId={props.customer.id} />
        </>
      ) : null}
    </div>
  );
}
