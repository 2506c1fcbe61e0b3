import { Disclosure, DisclosureButton, DisclosurePanel } from '@headlessui/react';
import { optionsFromObject, type QuestionRow } from '../api/questions.ts';
import { Button } from '../../ui/button.tsx';

/** What a visitor will see, shown disabled: choices as radio buttons (checkboxes for several). */
function AnswerPreview({ question }: { question: QuestionRow }) {
  const options = optionsFromObject(question.options);
  if (question.type === 'input') {
    return (
      <label className="block">
        <span className="mb-1 block text-sm text-slate-700">Antwortfeld (Vorschau)</span>
        <input
          type="text"
          disabled
          placeholder={options[0] || 'Antwort eingeben...'}
          className="block min-h-11 w-full rounded-lg border border-slate-300 bg-slate-50 px-3 py-2"
        />
      </label>
    );
  }
  return (
    <fieldset disabled className="flex flex-col gap-2">
      <legend className="mb-1 text-sm text-slate-700">
        {question.multipleAnswers
          ? 'Antworten (Mehrfachauswahl, Vorschau)'
          : 'Antworten (Vorschau)'}
      </legend>
      {options.map((option, index) => (
        <label key={index} className="flex items-center gap-3 text-slate-800">
          <input
            type={question.multipleAnswers ? 'checkbox' : 'radio'}
            name={`vorschau-${question.id}`}
            className="size-5 accent-brand-700"
          />
          {option}
        </label>
      ))}
    </fieldset>
  );
}

export interface QuestionActions {
  onEdit: (question: QuestionRow) => void;
  onDelete: (question: QuestionRow) => void;
  onMove: (question: QuestionRow, steps: -1 | 1) => void;
}

/**
 * One question as an accordion item, numbered by its place in the form (1..n, as visitors meet
 * them). The spec numbers by id, from an app where the two coincided; after questions are added,
 * moved or deleted they no longer do.
 */
export function QuestionAccordion(
  props: {
    question: QuestionRow;
    /** 1-based place in the form. */
    position: number;
    first: boolean;
    last: boolean;
  } & QuestionActions,
) {
  const { question, position } = props;
  // The visible words first, then which question: every row has the same four buttons.
  const named = (action: string) => ({ 'aria-label': `${action} (Frage ${position})` });
  return (
    <Disclosure as="li" className="rounded-lg border border-slate-200 bg-white">
      <h3>
        <DisclosureButton className="group flex min-h-11 w-full items-center justify-between gap-3 px-4 py-3 text-left font-semibold text-slate-900">
          <span>
            {position}. {question.question}
          </span>
          <span aria-hidden="true" className="transition-transform group-data-[open]:rotate-180">
            ▾
          </span>
        </DisclosureButton>
      </h3>
      <DisclosurePanel className="flex flex-col gap-4 border-t border-slate-200 px-4 py-4">
        {question.information ? <p className="text-slate-700">{question.information}</p> : null}
        <AnswerPreview question={question} />
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            {...named('Bearbeiten')}
            onClick={() => props.onEdit(question)}
          >
            Bearbeiten
          </Button>
          <Button
            variant="secondary"
            id={`frage-${question.id}-hoch`}
            {...named('Nach oben')}
            disabled={props.first}
            onClick={() => props.onMove(question, -1)}
          >
            Nach oben
          </Button>
          <Button
            variant="secondary"
            id={`frage-${question.id}-runter`}
            {...named('Nach unten')}
            disabled={props.last}
            onClick={() => props.onMove(question, 1)}
          >
            Nach unten
          </Button>
          {question.key ? null : (
            <Button
              variant="secondary"
              {...named('Löschen')}
              onClick={() => props.onDelete(question)}
            >
              Löschen
            </Button>
          )}
        </div>
        {question.key ? (
          <p className="text-sm text-slate-700">
            Diese Frage steuert den Ablauf des Tabaluga-Fragebogens und kann deshalb nicht gelöscht
            werden.
          </p>
        ) : null}
      </DisclosurePanel>
    </Disclosure>
  );
}
