import { Description, Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { questionFailureMessage, useDeleteQuestion, type QuestionRow } from '../api/questions.ts';
import { Button } from '../../ui/button.tsx';

/** Asks before a question is deleted; answers already given keep the question's text. */
export function QuestionDeleteDialog(props: {
  question: QuestionRow | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { question } = props;
  const remove = useDeleteQuestion();

  const close = () => {
    remove.reset();
    props.onClose();
  };

  return (
    <Dialog open={question !== null} onClose={close} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl">
          <DialogTitle as="h2" className="mb-3 text-xl font-bold text-slate-900">
            Frage löschen?
          </DialogTitle>
          <Description className="mb-4 text-slate-800">
            „{question?.question}“ wird aus dem Fragebogen entfernt. Antworten, die Kunden bereits
            gegeben haben, bleiben mit dem Fragetext lesbar.
          </Description>
          {remove.error ? (
            <p
              role="alert"
              className="mb-4 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900"
            >
              {questionFailureMessage('delete', remove.error)}
            </p>
          ) : null}
          <div className="flex flex-wrap justify-end gap-3">
            {/* The harmless choice first: Enter right after opening deletes nothing. */}
            <Button variant="secondary" onClick={close} data-autofocus>
              Abbrechen
            </Button>
            <button
              type="button"
              disabled={remove.isPending || question === null}
              onClick={() => {
                if (!question) return;
                remove.mutate(question, {
                  onSuccess: () => {
                    close();
                    props.onDeleted();
                  },
                });
              }}
              className="inline-flex min-h-11 items-center justify-center rounded-lg bg-red-700 px-5 py-2.5 font-semibold text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-slate-400"
            >
              Löschen
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
