import { questionFailureMessage, useDeleteQuestion, type QuestionRow } from '../api/questions.ts';
import { Button } from '../../ui/button.tsx';
import { Modal, ModalActions, ModalDescription, ModalTitle } from '../../ui/modal.tsx';

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
    <Modal open={question !== null} onClose={close}>
      <ModalTitle>Frage löschen?</ModalTitle>
      <ModalDescription>
        „{question?.question}“ wird aus dem Fragebogen entfernt. Antworten, die Kunden bereits
        gegeben haben, bleiben mit dem Fragetext lesbar.
      </ModalDescription>
      {remove.error ? (
        <p
          role="alert"
          className="mb-4 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900"
        >
          {questionFailureMessage('delete', remove.error)}
        </p>
      ) : null}
      <ModalActions>
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
      </ModalActions>
    </Modal>
  );
}
