import { useEffect, useRef } from "react";
import { shortcuts } from "./shortcuts";

export function HelpOverlay({ onClose }: { onClose(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" || e.key === "?") {
        e.preventDefault();
        onClose();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={ref} className="dialog help" role="dialog" aria-modal="true" aria-labelledby="help-title" tabIndex={-1}>
        <header className="dialog-head">
          <h2 id="help-title">Keyboard shortcuts</h2>
          <button type="button" className="btn-icon" aria-label="Close help" onClick={onClose}>
            ×
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
      </div>
    </div>
  );
}
