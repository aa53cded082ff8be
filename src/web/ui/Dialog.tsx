/**
 * The app's one dialog, for both workspaces: a modal on the native <dialog> (showModal): the
 * browser traps Tab inside it, makes the page behind inert, and puts it above everything.
 * Mounted = open; Escape, the backdrop or a close button call onClose and the parent unmounts
 * it. Focus goes back to whatever opened it. The element marked `data-autofocus` gets the focus
 * on open (React's autoFocus does not survive showModal()). `Modal` adds a titled frame with a
 * close button and a footer; `ConfirmDialog` a question with two answers.
 */
import { type ReactNode, useEffect, useId, useLayoutEffect, useRef } from "react";
import { Icon } from "./icons";
import { focusInDialog, refocusIfLost } from "./focus-fallback";

interface Props {
  labelledBy: string;
  className?: string;
  /** False while something is in flight that must not be abandoned half-way. */
  canClose?: boolean;
  onClose(): void;
  /** Where focus goes when the opener is gone (a button that disappeared with what it acted on). */
  fallbackFocus?(): HTMLElement | null | undefined;
  /** Extra keys handled while open (the lightbox's arrows). */
  onKeyDown?(e: React.KeyboardEvent<HTMLDialogElement>): void;
  children: ReactNode;
}

export function Dialog({ labelledBy, className, canClose = true, onClose, fallbackFocus, onKeyDown, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const latest = useRef({ onClose, canClose, fallbackFocus });
  useEffect(() => {
    latest.current = { onClose, canClose, fallbackFocus };
  });
  // Layout effect: its cleanup runs while the dialog is still in the document, so the opener
  // can get focus back.
  useLayoutEffect(() => {
    const d = ref.current;
    if (!d) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!d.open) d.showModal();
    d.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    const onCancel = (e: Event) => {
      e.preventDefault();
      if (latest.current.canClose) latest.current.onClose();
    };
    d.addEventListener("cancel", onCancel);
    // A stage that changes under the focus (a button that turns disabled or goes: Import's result,
    // Export's progress, "Updating…") drops it to the page, where nothing can be reached while the
    // modal is open (review 32b #3): back into the dialog. Neither a removal nor a disabling fires
    // an event on the element, so the dialog's content is watched.
    let looking = 0;
    const watch = new MutationObserver(() => {
      cancelAnimationFrame(looking);
      looking = requestAnimationFrame(() => {
        const lost = document.activeElement === null || document.activeElement === document.body;
        if (lost && d.open) focusInDialog(d);
      });
    });
    watch.observe(d, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled", "hidden", "aria-hidden"] });
    return () => {
      watch.disconnect();
      cancelAnimationFrame(looking);
      d.removeEventListener("cancel", onCancel);
      if (d.open) d.close();
      if (opener?.isConnected) opener.focus();
      // The opener may leave in the same render as the dialog: look again once it has settled.
      refocusIfLost(latest.current.fallbackFocus);
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={`dialog ${className ?? ""}`}
      aria-labelledby={labelledBy}
      onKeyDown={onKeyDown}
      onMouseDown={(e) => {
        // The backdrop belongs to the dialog element: a press outside its box is on the backdrop.
        if (e.target !== e.currentTarget || !canClose) return;
        const r = e.currentTarget.getBoundingClientRect();
        if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) onClose();
      }}
    >
      {children}
    </dialog>
  );
}

export interface ModalProps {
  title: string;
  onClose(): void;
  children: ReactNode;
  className?: string;
  onKeyDown?(e: React.KeyboardEvent<HTMLDialogElement>): void;
  footer?: ReactNode;
  canClose?: boolean;
  /** Where focus goes when the opener is gone (see Dialog). */
  fallbackFocus?(): HTMLElement | null | undefined;
}

/** A dialog with a title bar (title and close button), a scrolling body and a footer. */
export function Modal({ title, onClose, children, className, onKeyDown, footer, canClose = true, fallbackFocus }: ModalProps) {
  const id = useId();
  return (
    <Dialog labelledBy={id} className={`dialog-framed ${className ?? ""}`} onClose={onClose} onKeyDown={onKeyDown} canClose={canClose} fallbackFocus={fallbackFocus}>
      <header className="dialog-head">
        <h2 id={id}>{title}</h2>
        <button type="button" className="btn-icon" aria-label="Close" onClick={onClose} disabled={!canClose}>
          <Icon name="x" size={14} />
        </button>
      </header>
      <div className="dialog-body">{children}</div>
      {footer && <footer className="dialog-foot">{footer}</footer>}
    </Dialog>
  );
}

export interface ConfirmProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

export function ConfirmDialog({ title, children, confirmLabel, cancelLabel = "Cancel", danger, busy, onConfirm, onCancel }: ConfirmProps) {
  return (
    <Modal
      title={title}
      onClose={onCancel}
      className="dialog-confirm"
      footer={
        <>
          {/* Enter does the safe thing where the action cannot be undone. */}
          <button type="button" className="btn" onClick={onCancel} data-autofocus={danger ? "" : undefined}>
            {cancelLabel}
          </button>
          <button type="button" className={`btn ${danger ? "btn-danger" : "btn-primary"}`} onClick={onConfirm} disabled={busy} data-autofocus={danger ? undefined : ""}>
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
