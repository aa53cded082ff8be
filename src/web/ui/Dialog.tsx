/**
 * A modal on the native <dialog> (showModal): the browser traps Tab inside it, makes the page
 * behind inert, and puts it above everything. Mounted = open; Escape, the backdrop or a close
 * button call onClose and the parent unmounts it. Focus goes back to whatever opened it.
 */
import { type ReactNode, useEffect, useLayoutEffect, useRef } from "react";

interface Props {
  labelledBy: string;
  className?: string;
  /** False while something is in flight that must not be abandoned half-way. */
  canClose?: boolean;
  onClose(): void;
  /** Where focus goes when the opener is gone (a button that disappeared with what it acted on). */
  fallbackFocus?(): HTMLElement | null | undefined;
  children: ReactNode;
}

export function Dialog({ labelledBy, className, canClose = true, onClose, fallbackFocus, children }: Props) {
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
    const onCancel = (e: Event) => {
      e.preventDefault();
      if (latest.current.canClose) latest.current.onClose();
    };
    d.addEventListener("cancel", onCancel);
    return () => {
      d.removeEventListener("cancel", onCancel);
      if (d.open) d.close();
      if (opener?.isConnected) opener.focus();
      // The opener may leave in the same render as the dialog: look again once it has settled.
      const { fallbackFocus: fallback } = latest.current;
      if (fallback) {
        requestAnimationFrame(() => {
          if (!document.activeElement || document.activeElement === document.body) fallback()?.focus();
        });
      }
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={`dialog ${className ?? ""}`}
      aria-labelledby={labelledBy}
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
