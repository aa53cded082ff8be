/**
 * A modal on the native <dialog>: the browser gives focus trapping, Escape and the backdrop.
 * Mounted = open; closing (Escape, the close button) calls onClose and the parent unmounts it.
 * The element marked `data-autofocus` gets the focus when it opens (React's autoFocus does not
 * survive showModal(), which moves focus to the first focusable element: the close button).
 */
import { type ReactNode, useEffect, useLayoutEffect, useRef } from "react";

export interface ModalProps {
  title: string;
  onClose(): void;
  children: ReactNode;
  className?: string;
  /** Extra keys handled while open (the lightbox's arrows). */
  onKeyDown?(e: React.KeyboardEvent<HTMLDialogElement>): void;
  footer?: ReactNode;
}

export function Modal({ title, onClose, children, className, onKeyDown, footer }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });
  // Layout effect: its cleanup runs before React removes the dialog, so focus can go back to
  // whatever opened it (the browser's own restore needs the dialog still in the document).
  useLayoutEffect(() => {
    const d = ref.current;
    if (!d) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!d.open) d.showModal();
    d.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    const onCancel = (e: Event) => {
      e.preventDefault();
      closeRef.current();
    };
    d.addEventListener("cancel", onCancel);
    return () => {
      d.removeEventListener("cancel", onCancel);
      if (d.open) d.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={`st-modal ${className ?? ""}`}
      aria-label={title}
      onKeyDown={onKeyDown}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog element itself.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="st-modal-body">
        <header className="st-modal-head">
          <h2>{title}</h2>
          <button type="button" className="st-icon-btn" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        <div className="st-modal-content">{children}</div>
        {footer && <footer className="st-modal-foot">{footer}</footer>}
      </div>
    </dialog>
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
      className="st-confirm"
      footer={
        <>
          {/* Enter does the safe thing where the action cannot be undone. */}
          <button type="button" className="st-btn" onClick={onCancel} data-autofocus={danger ? "" : undefined}>
            {cancelLabel}
          </button>
          <button type="button" className={`st-btn ${danger ? "st-btn-danger" : "st-btn-primary"}`} onClick={onConfirm} disabled={busy} data-autofocus={danger ? undefined : ""}>
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
