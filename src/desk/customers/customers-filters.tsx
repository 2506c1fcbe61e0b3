import { Disclosure, DisclosureButton, DisclosurePanel } from '@headlessui/react';
import { useState, type ReactNode } from 'react';
import {
  customerLeadSources,
  hasCustomerFilters,
  noCustomerFilters,
  type CustomerFilters,
  type CustomerLeadSource,
} from '../api/customers.ts';
import { isCalendarDay } from '../../domain/calendar.ts';
import { isLeadStatus, leadStatusLabels, leadStatuses } from '../../domain/lead-status.ts';
import { Button } from '../../ui/button.tsx';
import { CheckboxField, SelectField, TextField } from '../../ui/form-fields.tsx';

// The filter bar above the customer list, one line: the search, questionnaire, source and
// status, and 'Weitere Filter' that opens the period and the open follow-up. Every choice applies
// at once (into the address, as the search does); the period's dates apply when they are whole
// days that form a range.

export interface QuestionnaireChoice {
  id: number;
  title: string;
}

/** Analyse's names for the two places, and the two contact forms' names in the desk. */
export const sourceLabels: Record<CustomerLeadSource, string> = {
  web: 'Website',
  fair_tablet: 'Messe-Tablet',
  kfz: 'KFZ-Rückruf',
  contact: 'Kontaktformular',
};

const all = 'alle';

export interface PeriodErrors {
  von?: string;
  bis?: string;
}

/** The period's problems, per field, in German; an empty field is no bound. */
export function validatePeriod(von: string, bis: string): PeriodErrors {
  const errors: PeriodErrors = {};
  const invalid = 'Bitte gib ein gültiges Datum ein (TT.MM.JJJJ).';
  if (von && !isCalendarDay(von)) errors.von = invalid;
  if (bis && !isCalendarDay(bis)) errors.bis = invalid;
  else if (bis && von && !errors.von && bis < von) {
    errors.bis = 'Das Enddatum darf nicht vor dem Startdatum liegen.';
  }
  return errors;
}

export function CustomersFilters(props: {
  filters: CustomerFilters;
  questionnaires: readonly QuestionnaireChoice[];
  /** The questionnaires could not be read: the choice offers none and says so. */
  questionnairesFailed: boolean;
  onChange: (next: CustomerFilters) => void;
  /** The search box, first in the filters' line. */
  search?: ReactNode;
}) {
  const { filters, onChange } = props;
  const [von, setVon] = useState(filters.receivedFrom ?? '');
  const [bis, setBis] = useState(filters.receivedTo ?? '');

  // Back and forward (and 'Filter zurücksetzen') change the address: the dates follow.
  const applied = `${filters.receivedFrom ?? ''}/${filters.receivedTo ?? ''}`;
  const [shown, setShown] = useState(applied);
  if (applied !== shown) {
    setShown(applied);
    setVon(filters.receivedFrom ?? '');
    setBis(filters.receivedTo ?? '');
  }
  const errors = validatePeriod(von, bis);

  const changeDate = (field: 'von' | 'bis', value: string) => {
    const next = { von, bis, [field]: value };
    if (field === 'von') setVon(value);
    else setBis(value);
    const found = validatePeriod(next.von, next.bis);
    if (found.von ?? found.bis) return;
    onChange({ ...filters, receivedFrom: next.von || null, receivedTo: next.bis || null });
  };

  const questionnaireOptions = [
    { value: all, label: 'Alle Fragebögen' },
    ...props.questionnaires.map((form) => ({ value: String(form.id), label: form.title })),
  ];
  // A questionnaire from a shared link that is gone (or not loaded yet) stays chosen, by number.
  if (
    filters.questionnaireId !== null &&
    !props.questionnaires.some((form) => form.id === filters.questionnaireId)
  ) {
    questionnaireOptions.push({
      value: String(filters.questionnaireId),
      label: `Fragebogen ${filters.questionnaireId}`,
    });
  }

  // The period and the follow-up live behind 'Weitere Filter', open when one of them is set.
  const moreActive =
    (filters.receivedFrom !== null ? 1 : 0) +
    (filters.receivedTo !== null ? 1 : 0) +
    (filters.openFollowUp ? 1 : 0);

  return (
    <form
      aria-label="Filter der Kundenliste"
      noValidate
      onSubmit={(event) => event.preventDefault()}
      className="mb-4 rounded-lg bg-white px-4 py-3 shadow"
    >
      <Disclosure defaultOpen={moreActive > 0 || von !== '' || bis !== ''}>
        <div className="flex flex-wrap items-end gap-x-3 gap-y-2">
          {props.search}
          <SelectField
            label="Fragebogen"
            className="w-44"
            value={filters.questionnaireId === null ? all : String(filters.questionnaireId)}
            options={questionnaireOptions}
            error={
              props.questionnairesFailed
                ? 'Die Fragebögen konnten nicht geladen werden.'
                : undefined
            }
            onChange={(event) =>
              onChange({
                ...filters,
                questionnaireId: event.target.value === all ? null : Number(event.target.value),
              })
            }
          />
          <SelectField
            label="Quelle"
            className="w-44"
            value={filters.source ?? all}
            options={[
              { value: all, label: 'Alle Quellen' },
              ...customerLeadSources.map((source) => ({
                value: source,
                label: sourceLabels[source],
              })),
            ]}
            onChange={(event) =>
              onChange({
                ...filters,
                source: customerLeadSources.find((source) => source === event.target.value) ?? null,
              })
            }
          />
          <SelectField
            label="Status"
            className="w-44"
            value={filters.status ?? all}
            options={[
              { value: all, label: 'Alle Status' },
              ...leadStatuses.map((status) => ({ value: status, label: leadStatusLabels[status] })),
            ]}
            onChange={(event) =>
              onChange({
                ...filters,
                status: isLeadStatus(event.target.value) ? event.target.value : null,
              })
            }
          />
          <DisclosureButton className="group inline-flex min-h-11 items-center gap-2 rounded-lg border border-slate-400 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-100">
            Weitere Filter
            {moreActive > 0 ? (
              <>
                <span
                  aria-hidden="true"
                  className="rounded-full bg-brand-700 px-2 text-sm text-white"
                >
                  {moreActive}
                </span>
                <span className="sr-only">{` (${moreActive} aktiv)`}</span>
              </>
            ) : null}
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              className="h-4 w-4 transition-transform group-data-open:rotate-180"
              fill="none"
            >
              <path d="M5.5 7.5 10 12l4.5-4.5" stroke="currentColor" strokeWidth="1.5" />
            </svg>
          </DisclosureButton>
          {hasCustomerFilters(filters) ? (
            <Button
              variant="secondary"
              onClick={() => {
                setVon('');
                setBis('');
                onChange(noCustomerFilters);
              }}
            >
              Filter zurücksetzen
            </Button>
          ) : null}
        </div>
        <DisclosurePanel className="mt-3 flex flex-wrap items-start gap-x-6 gap-y-3 border-t border-slate-200 pt-3">
          <fieldset className="flex flex-wrap gap-3">
            <legend className="mb-1 font-medium text-slate-800">
              Zeitraum (Eingang der Anfrage)
            </legend>
            <TextField
              label="Von"
              type="date"
              className="w-44"
              value={von}
              error={errors.von}
              onChange={(event) => changeDate('von', event.target.value)}
            />
            <TextField
              label="Bis"
              type="date"
              className="w-44"
              value={bis}
              error={errors.bis}
              onChange={(event) => changeDate('bis', event.target.value)}
            />
          </fieldset>
          <CheckboxField
            label="Offene Wiedervorlage"
            className="self-end pb-2"
            checked={filters.openFollowUp}
            onChange={(event) => onChange({ ...filters, openFollowUp: event.target.checked })}
          />
        </DisclosurePanel>
      </Disclosure>
    </form>
  );
}
