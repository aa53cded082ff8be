import { useEffect } from "react";
import { Dialog } from "../ui/Dialog";
import { shortcuts } from "./shortcuts";
import { Icon } from "../ui/icons";

export function HelpOverlay({ onClose }: { onClose(): void }) {
  useEffect(() => {
    // Escape is the dialog's own cancel; "?" toggles, as it opened it.
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "?") {
        e.preventDefault();
        onClose();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <Dialog labelledBy="help-title" className="help" onClose={onClose}>
      <header className="dialog-head">
        <h2 id="help-title">Keyboard shortcuts</h2>
        <button type="button" className="btn-icon" aria-label="Close help" onClick={onClose}>
          <Icon name="x" size={14} />
        </button>
      </header>
      <table className="shortcut-table">
        <tbody>
          {shortcuts.map((s) => (
            <tr key={s.keys.join("+") + s.where}>
              <td className="keys">
                {s.keys.map((k) => (
                  <kbd key={k}>{k}</kbd>
                ))}
              </td>
              <td>{s.what}</td>
              <td className="muted">{s.where}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
