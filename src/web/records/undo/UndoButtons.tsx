import { useEffect } from "react";
import { isTypingTarget } from "../../app/shortcuts";
import { useUndoStore } from "./undo-store";
import { useUndoRedo } from "./use-undo";
import { Icon } from "../../ui/icons";

/** Undo/redo buttons and their Ctrl/⌘+Z, Ctrl/⌘+Shift+Z (and Ctrl+Y) shortcuts. */
export function UndoButtons() {
  const { past, future, busy } = useUndoStore();
  const { undo, redo } = useUndoRedo();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Not behind an open modal dialog: what it shows could change under it.
      if (!(e.ctrlKey || e.metaKey) || isTypingTarget(e.target) || document.querySelector("dialog:modal")) return;
      const k = e.key.toLowerCase();
      if (k === "z" && !e.shiftKey) {
        e.preventDefault();
        undo();
      } else if ((k === "z" && e.shiftKey) || k === "y") {
        e.preventDefault();
        redo();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [undo, redo]);
  const last = past[past.length - 1];
  const next = future[future.length - 1];
  // aria-disabled, not disabled: the last Undo pressed left the focus on nothing (review 46b #4).
  return (
    <span className="btn-group">
      <button type="button" className="btn" onClick={() => last && !busy && undo()} aria-disabled={!last || busy || undefined} title={last ? `Undo: ${last.label} in ${last.db}/${last.table} (Ctrl+Z)` : "Nothing to undo"} aria-label="Undo">
        <Icon name="undo" size={14} />
        <span className="btn-label"> Undo</span>
      </button>
      <button type="button" className="btn" onClick={() => next && !busy && redo()} aria-disabled={!next || busy || undefined} title={next ? `Redo: ${next.label} in ${next.db}/${next.table} (Ctrl+Shift+Z)` : "Nothing to redo"} aria-label="Redo">
        <Icon name="redo" size={14} />
        <span className="btn-label"> Redo</span>
      </button>
    </span>
  );
}
