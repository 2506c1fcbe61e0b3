import { useState, type FormEvent } from 'react';
import { Button } from '../../ui/button.tsx';
import { SelectField, TextField } from '../../ui/form-fields.tsx';
import {
  hasErrors,
  periodOptions,
  presetRange,
  sourceOptions,
  validateRange,
  type AnalysisSelection,
  type PeriodChoice,
  type RangeErrors,
  type SourceChoice,
} from './analysis-filter.ts';

export interface FormChoice {
  id: number;
  title: string;
}

/**
 * The selection. Period, questionnaire and source apply at once; a custom range applies with
 * its button, after checking it, so that half-typed dates never reach the database.
 */
export function AnalysisFilters(props: {
  selection: AnalysisSelection;
  forms: readonly FormChoice[];
  today: string;
  onChange: (next: AnalysisSelection) => void;
}) {
  const { selection, today, onChange } = props;
  const [von, setVon] = useState(selection.dayFrom);
  const [bis, setBis] = useState(selection.dayTo);
  const [errors, setErrors] = useState<RangeErrors>({});

  // Back and forward change the address: the date fields follow the applied range.
  const [shown, setShown] = useState(`${selection.dayFrom}/${selection.dayTo}`);
  const applied = `${selection.dayFrom}/${selection.dayTo}`;
  if (applied !== shown) {
    setShown(applied);
    setVon(selection.dayFrom);
    setBis(selection.dayTo);
    setErrors({});
  }

  const choosePeriod = (period: PeriodChoice) => {
    setErrors({});
    if (period === 'eigener') onChange({ ...selection, period });
    else onChange({ ...selection, period, ...presetRange(period, today) });
  };

  const applyRange = (event: FormEvent) => {
    event.preventDefault();
    const found = validateRange(von, bis, today);
    setErrors(found);
    if (hasErrors(found)) return;
    onChange({ ...selection, period: 'eigener', dayFrom: von, dayTo: bis });
  };

  const formOptions = [
    { value: 'alle', label: 'Alle Anfragen (inkl. KFZ und Kontakt)' },
    ...props.forms.map((form) => ({ value: String(form.id), label: form.title })),
  ];

  return (
    <form onSubmit={applyRange} noValidate aria-label="Filter der Analyse">
      <fieldset className="grid gap-4 rounded-lg bg-white p-5 shadow sm:grid-cols-3">
        <legend className="sr-only">Filter</legend>
        <SelectField
          label="Zeitraum"
          value={selection.period}
          options={periodOptions}
          onChange={(event) => choosePeriod(event.target.value as PeriodChoice)}
        />
        <SelectField
          label="Fragebogen"
          value={selection.questionnaireId === null ? 'alle' : String(selection.questionnaireId)}
          options={formOptions}
          onChange={(event) =>
            onChange({
              ...selection,
              questionnaireId: event.target.value === 'alle' ? null : Number(event.target.value),
            })
          }
        />
        <SelectField
          label="Quelle"
          value={selection.source}
          options={sourceOptions}
          onChange={(event) =>
            onChange({ ...selection, source: event.target.value as SourceChoice })
          }
        />
        {selection.period === 'eigener' ? (
          <div className="grid gap-4 sm:col-span-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
            <TextField
              label="Von"
              type="date"
              value={von}
              max={today}
              error={errors.von}
              onChange={(event) => setVon(event.target.value)}
            />
            <TextField
              label="Bis"
              type="date"
              value={bis}
              max={today}
              error={errors.bis}
              onChange={(event) => setBis(event.target.value)}
            />
            <Button type="submit" className="sm:mt-7">
              Zeitraum anwenden
            </Button>
          </div>
        ) : null}
      </fieldset>
    </form>
  );
}
