import { useEffect, useState, type ReactNode } from 'react';
import { useBlocker } from 'react-router-dom';
import { Button } from '../../ui/button.tsx';
import { Modal, ModalActions, ModalDescription, ModalTitle } from '../../ui/modal.tsx';

/**
 * Asks before unsaved input is dropped. `what` completes "Du hast Änderungen … noch nicht
 * gespeichert", e.g. 'an diesem Kunden'. Render it inside the dialog it guards, so that Headless
 * UI treats it as a nested dialog (Escape and a click outside close only this one).
 */
export function DiscardDialog(props: {
  open: boolean;
  what: string;
  onDiscard: () => void;
  onKeep: () => void;
}) {
  return (
    <Modal open={props.open} onClose={props.onKeep} role="alertdialog" onTop>
      <ModalTitle>Änderungen verwerfen?</ModalTitle>
      <ModalDescription className="mb-5 text-slate-800">
        Du hast Änderungen {props.what} noch nicht gespeichert. Wenn du fortfährst, gehen sie
        verloren.
      </ModalDescription>
      <ModalActions>
        <Button variant="secondary" onClick={props.onKeep} data-autofocus>
          Weiter bearbeiten
        </Button>
        <Button onClick={props.onDiscard}>Änderungen verwerfen</Button>
      </ModalActions>
    </Modal>
  );
}

export type Leave = (leave: () => void) => void;

/**
 * For a sidebar or dialog with a form: `requestLeave(close)` closes at once when nothing is
 * typed, else asks first (`dialog` is the question, to render inside the guarded dialog).
 */
export function useDiscardGuard(
  dirty: boolean,
  what: string,
  onDiscarded?: () => void,
): { requestLeave: Leave; dialog: ReactNode } {
  const [pending, setPending] = useState<(() => void) | null>(null);
  const requestLeave: Leave = (leave) => {
    if (dirty) setPending(() => leave);
    else leave();
  };
  const dialog = (
    <DiscardDialog
      open={pending !== null}
      what={what}
      onKeep={() => setPending(null)}
      onDiscard={() => {
        const leave = pending;
        setPending(null);
        onDiscarded?.();
        leave?.();
      }}
    />
  );
  return { requestLeave, dialog };
}

/**
 * For a page with a form: following a link or going back to another page with unsaved input
 * asks first (in the desk's own dialog), and closing or reloading the tab gets the browser's
 * question. A navigation right after a save belongs in an effect, so that the clean form has
 * rendered by then.
 */
export function useLeavePageGuard(dirty: boolean, what: string): ReactNode {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);
  return (
    <DiscardDialog
      open={blocker.state === 'blocked'}
      what={what}
      onKeep={() => blocker.reset?.()}
      onDiscard={() => blocker.proceed?.()}
    />
  );
}
