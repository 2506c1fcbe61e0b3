import { Description, Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';

// The desk's centred dialogs (a question before something is lost, a short form). Headless UI
// traps the focus inside, gives the panel role="dialog" (or alertdialog) named by ModalTitle and
// described by ModalDescription, closes on Escape and a click outside, and puts the focus on the
// element marked `data-autofocus` (the harmless choice).

/**
 * A dialog over the page. `onTop` for one that opens over a sidebar (a sidebar's own dialog, or
 * the question before it drops input); `wide` for a panel with more to read, which scrolls when
 * the window is too low.
 */
export function Modal(props: {
  open: boolean;
  onClose: () => void;
  role?: 'dialog' | 'alertdialog';
  onTop?: boolean;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      role={props.role ?? 'dialog'}
      className={props.onTop ? 'relative z-60' : 'relative z-50'}
    >
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
          className={`w-full rounded-lg bg-white p-6 shadow-xl ${
            props.wide ? 'max-h-full max-w-lg overflow-y-auto' : 'max-w-md'
          }`}
        >
          {props.children}
        </DialogPanel>
      </div>
    </Dialog>
  );
}

/** The dialog's heading, which names it for screen readers. */
export function ModalTitle(props: { children: ReactNode; className?: string }) {
  return (
    <DialogTitle
      as="h2"
      className={`text-xl font-bold text-slate-900 ${props.className ?? 'mb-3'}`}
    >
      {props.children}
    </DialogTitle>
  );
}

/** What the dialog is about, read out with its name. */
export function ModalDescription(props: { children: ReactNode; className?: string }) {
  return (
    <Description className={props.className ?? 'mb-4 text-slate-800'}>{props.children}</Description>
  );
}

/** The dialog's buttons, right-aligned; the harmless choice comes first. */
export function ModalActions(props: { children: ReactNode; className?: string }) {
  return (
    <div className={`flex flex-wrap justify-end gap-3 ${props.className ?? ''}`}>
      {props.children}
    </div>
  );
}
