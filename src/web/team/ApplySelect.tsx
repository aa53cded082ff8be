/**
 * A select whose change signs someone out (a role, a grant): chosen with the mouse it applies at
 * once, but arrow keys on a closed select change its value at every press, and each press
 * applied a role (viewer → editor → admin, signing the person out each time). From the keyboard
 * the choice is held until Enter applies it; Esc, or leaving the box, puts it back.
 */
import { useId, useRef, useState } from "react";

interface Props {
  value: string;
  label: string;
  disabled?: boolean;
  title?: string;
  onApply(value: string): void;
  children: React.ReactNode;
}

export function ApplySelect({ value, label, disabled, title, onApply, children }: Props) {
  const [held, setHeld] = useState<string>();
  const by = useRef<"pointer" | "key">("pointer");
  const hint = useId();
  const shown = held ?? value;
  const apply = (v: string) => {
    setHeld(undefined);
    if (v !== value) onApply(v);
  };
  return (
    <span className="apply-select">
      <select
        aria-label={label}
        aria-describedby={held !== undefined ? hint : undefined}
        value={shown}
        disabled={disabled}
        title={title}
        onPointerDown={() => (by.current = "pointer")}
        onKeyDown={(e) => {
          by.current = "key";
          if (e.key === "Enter" && held !== undefined) {
            e.preventDefault();
            apply(held);
          } else if (e.key === "Escape" && held !== undefined) {
            e.preventDefault();
            e.stopPropagation();
            setHeld(undefined);
          }
        }}
        onChange={(e) => (by.current === "key" ? setHeld(e.target.value === value ? undefined : e.target.value) : apply(e.target.value))}
        onBlur={() => setHeld(undefined)}
      >
        {children}
      </select>
      {held !== undefined && (
        <span id={hint} className="muted small apply-select-hint" role="status">
          Enter applies it (this signs them out); Esc keeps {value || "the role's access"}.
        </span>
      )}
    </span>
  );
}
