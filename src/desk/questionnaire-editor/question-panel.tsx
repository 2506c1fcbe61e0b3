import { useEffect, useId, useRef, useState } from 'react';
import {
  questionFailureMessage,
  questionMessages,
  useFormQuestions,
  useMoveQuestion,
  useRefreshQuestions,
  type QuestionRow,
} from '../api/questions.ts';
import { Alert } from '../../ui/alert.tsx';
import { Button } from '../../ui/button.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { QuestionAccordion } from './question-accordion.tsx';
import { QuestionDeleteDialog } from './question-delete-dialog.tsx';
import { QuestionSidebar, type QuestionSidebarMode } from './question-sidebar.tsx';

/** The moved question's button in the direction it went, or the other once it reached an end. */
function focusMoveButton({ id, steps }: { id: number; steps: -1 | 1 }) {
  const [wanted, other] = steps < 0 ? ['hoch', 'runter'] : ['runter', 'hoch'];
  const button = document.getElementById(`frage-${id}-${wanted}`);
  const target =
    button instanceof HTMLButtonElement && button.disabled
      ? document.getElementById(`frage-${id}-${other}`)
      : button;
  target?.focus();
}

function QuestionList(props: {
  questions: QuestionRow[];
  onEdit: (question: QuestionRow) => void;
  onDelete: (question: QuestionRow) => void;
}) {
  const move = useMoveQuestion();
  const { questions } = props;
  // React moves list nodes when the order changes, and a moved node loses its focus: once the
  // new order is on screen the moved question's button gets it back.
  const moved = useRef<{ id: number; steps: -1 | 1 } | null>(null);
  useEffect(() => {
    if (!moved.current) return;
    focusMoveButton(moved.current);
    moved.current = null;
  }, [questions]);
  return (
    <>
      {move.error ? <Alert tone="error">{questionFailureMessage('move', move.error)}</Alert> : null}
      <ol className="flex flex-col gap-3">
        {questions.map((question, index) => (
          <QuestionAccordion
            key={question.id}
            question={question}
            position={index + 1}
            first={index === 0}
            last={index === questions.length - 1}
            onEdit={props.onEdit}
            onDelete={props.onDelete}
            onMove={(target, steps) => {
              if (move.isPending) return;
              moved.current = { id: target.id, steps };
              move.mutate({ question: target, steps });
            }}
          />
        ))}
      </ol>
    </>
  );
}

/** The editor's right column: the form's questions in sequence order, added, edited, moved. */
export function QuestionsPanel({ form }: { form: { id: number; title: string } }) {
  const refresh = useRefreshQuestions();
  const questions = useFormQuestions(form.id);
  const [sidebar, setSidebar] = useState<QuestionSidebarMode | null>(null);
  const [deleting, setDeleting] = useState<QuestionRow | null>(null);
  const count = questions.data?.length ?? 0;
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-lg bg-white p-6 shadow"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} ref={heading} tabIndex={-1} className="text-xl font-bold text-slate-900">
          Fragen
        </h2>
        <Button
          disabled={!questions.isSuccess}
          onClick={() => setSidebar({ kind: 'add', formId: form.id, nextSequence: count + 1 })}
        >
          {/* As the spec has it: the button names what the sidebar is doing. */}
          {sidebar?.kind === 'edit' ? 'Frage bearbeiten' : 'Frage hinzufügen'}
        </Button>
      </div>
      {questions.isPending ? (
        <p role="status" aria-busy="true" className="text-slate-600">
          Fragen werden geladen …
        </p>
      ) : questions.isError ? (
        <LoadError onRetry={questions.refetch}>{questionMessages.loadFailed}</LoadError>
      ) : questions.data.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-slate-700">
          Dieser Fragebogen hat noch keine Fragen.
        </p>
      ) : (
        <QuestionList
          questions={questions.data}
          onEdit={(question) => setSidebar({ kind: 'edit', question })}
          onDelete={setDeleting}
        />
      )}
      <QuestionSidebar
        mode={sidebar}
        onModeChange={setSidebar}
        onClose={() => {
          setSidebar(null);
          void refresh(form.id);
        }}
      />
      <QuestionDeleteDialog
        question={deleting}
        onClose={() => setDeleting(null)}
        // The deleted question's button is gone: focus goes to the list's heading instead of
        // falling back to the top of the page.
        onDeleted={() => window.setTimeout(() => heading.current?.focus(), 0)}
      />
    </section>
  );
}
