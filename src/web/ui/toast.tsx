/**
 * Toasts: one small zustand store and one component. Any module may call toast(); the shell
 * renders <Toaster /> once. ApiErrors land here unless the caller shows them itself.
 */
import { useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { create } from "zustand";
import { Icon } from "./icons";
import { focusHome, refocusIfLost } from "./focus-fallback";

export type ToastKind = "info" | "success" | "error";

export interface Toast {
  id: number;
  kind: ToastKind;
  title: string;
  detail?: string;
  /** One button beside the text (e.g. Undo on the toast of an undoable change); it dismisses the toast. */
  action?: ToastAction;
}

export interface ToastAction {
  label: string;
  /** False when it declined (and said why): the toast stays, for later. */
  run(): boolean | void;
  /** What the action acts on (e.g. "undo:<entry id>"): its toasts go once that is done another way. */
  key?: string;
}

interface ToastState {
  toasts: Toast[];
  push(t: Omit<Toast, "id">, ttlMs?: number): number;
  dismiss(id: number): void;
  /** Dismisses the toasts whose action has this key (it was done, so the button would lie). */
  dismissAction(key: string): void;
}

let nextId = 1;

export const useToastStore = create<ToastState>((set, get) => ({
  toasts: [],
  push(t, ttlMs = t.kind === "error" ? 8000 : 4000) {
    // The same words already on screen (two effects, or two presses, saying one thing): once.
    const same = !t.action && get().toasts.find((x) => !x.action && x.title === t.title && x.detail === t.detail);
    if (same) return same.id;
    const id = nextId++;
    set({ toasts: [...get().toasts, { ...t, id }] });
    if (ttlMs > 0) setTimeout(() => get().dismiss(id), ttlMs);
    return id;
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((x) => x.id !== id) });
  },
  dismissAction(key) {
    if (get().toasts.some((x) => x.action?.key === key)) set({ toasts: get().toasts.filter((x) => x.action?.key !== key) });
  },
}));

export function toast(title: string, opts: { kind?: ToastKind; detail?: string; ttlMs?: number; action?: Toast["action"] } = {}): number {
  // A toast with an action stays longer: there must be time to reach the button.
  return useToastStore.getState().push({ kind: opts.kind ?? "info", title, detail: opts.detail, action: opts.action }, opts.ttlMs ?? (opts.action ? 10_000 : undefined));
}

/**
 * The open modal <dialog> on top, if any. A modal dialog sits in the browser's top layer above
 * every z-index and makes the rest of the page inert (hidden from screen readers, not clickable),
 * so toasts rendered in the page would sit behind its backdrop; rendered inside it they stay
 * visible, clickable and announced.
 */
function useTopModalDialog(): HTMLDialogElement | null {
  const [dialog, setDialog] = useState<HTMLDialogElement | null>(null);
  useEffect(() => {
    const find = () => {
      const open = document.querySelectorAll<HTMLDialogElement>("dialog:modal");
      setDialog(open.length ? open[open.length - 1] : null);
    };
    find();
    // `open` flips when showModal()/close() run. Only that attribute is watched: watching every
    // DOM change would run this on each scroll of the virtual grid.
    const mo = new MutationObserver(find);
    mo.observe(document.body, { subtree: true, attributes: true, attributeFilter: ["open"] });
    return () => mo.disconnect();
  }, []);
  return dialog;
}

export function Toaster() {
  const toasts = useToastStore((s) => s.toasts);
  const dismiss = useToastStore((s) => s.dismiss);
  const dialog = useTopModalDialog();
  const list = (
    <section className="toaster" aria-label="Notifications" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} role={t.kind === "error" ? "alert" : "status"} className={`toast toast-${t.kind}`}>
          <div className="toast-text">
            <strong>{t.title}</strong>
            {t.detail && <div className="toast-detail">{t.detail}</div>}
          </div>
          {t.action && (
            <button
              type="button"
              className="btn btn-sm toast-action"
              onClick={() => {
                // An action that declines (it says why in a toast of its own) keeps its toast.
                if (t.action!.run() !== false) dismiss(t.id);
                refocusIfLost(focusHome);
              }}
            >
              {t.action.label}
            </button>
          )}
          <button type="button" aria-label="Dismiss notification" onClick={() => dismiss(t.id)}>
            <Icon name="x" size={14} />
          </button>
        </div>
      ))}
    </section>
  );
  // A dialog removed from the page without close() is no longer a place to show anything.
  return dialog?.isConnected && dialog.matches(":modal") ? createPortal(list, dialog) : list;
}

/**
 * Raises the toasts above `el` (a message they would otherwise cover, at the bottom of the
 * window) until the returned function is called. Left as they are when `el` is high enough, or
 * so high that toasts above it would leave the window.
 */
export function raiseToastsAbove(el: HTMLElement): () => void {
  const root = document.documentElement;
  const above = Math.ceil(window.innerHeight - el.getBoundingClientRect().top + 8);
  if (above <= TOAST_BOTTOM_PX || above > window.innerHeight - 160) return () => {};
  root.style.setProperty("--toast-bottom", `${above}px`);
  return () => root.style.removeProperty("--toast-bottom");
}
/** Where toasts sit from the window's bottom (toast.css's .toaster). */
const TOAST_BOTTOM_PX = 52;
