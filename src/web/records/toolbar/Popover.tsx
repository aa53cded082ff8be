/** A button with a panel below it; closes on Escape or a click outside. */
import { type ReactNode, useEffect, useId, useRef, useState } from "react";

export function Popover({ label, badge, children, className }: { label: string; badge?: ReactNode; children(close: () => void): ReactNode; className?: string }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      // The focused control inside is about to disappear: give focus back to the trigger.
      if (ref.current?.contains(document.activeElement)) button.current?.focus();
    };
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return (
    <div className={`popover-wrap ${className ?? ""}`} ref={ref}>
      <button ref={button} type="button" className={`btn ${open ? "pressed" : ""}`} aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        {label}
        {badge}
      </button>
      {open && (
        // biome-ignore lint/a11y/useSemanticElements: a non-modal panel
        <div id={id} className="popover" role="dialog" aria-label={label}>
          {children(() => {
            setOpen(false);
            button.current?.focus();
          })}
        </div>
      )}
    </div>
  );
}
