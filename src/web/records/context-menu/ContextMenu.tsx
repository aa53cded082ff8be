/**
 * A menu at a point (a right-click, Shift+F10 or the ContextMenu key): role="menu", arrows and
 * Home/End move, Enter or Space runs an item, Esc closes and gives focus back to the grid.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import "./context-menu.css";

export interface MenuItem {
  label: string;
  run(): void;
  disabled?: boolean;
  hint?: string;
  separatorBefore?: boolean;
}

export function ContextMenu({ x, y, label, items, onClose }: { x: number; y: number; label: string; items: MenuItem[]; onClose(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ left: x, top: y });
  const enabled = items.map((it, i) => (it.disabled ? -1 : i)).filter((i) => i >= 0);
  const [focus, setFocus] = useState(enabled[0] ?? 0);

  // Keep it inside the window.
  useLayoutEffect(() => {
    const r = ref.current?.getBoundingClientRect();
    if (!r) return;
    setPos({ left: Math.max(4, Math.min(x, window.innerWidth - r.width - 4)), top: Math.max(4, Math.min(y, window.innerHeight - r.height - 4)) });
  }, [x, y]);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>(`[data-i="${focus}"]`)?.focus();
  }, [focus]);
  useEffect(() => {
    const away = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) onClose();
    };
    const blur = () => onClose();
    // Escape closes it even when the focus went elsewhere meanwhile (a panel closing hands the
    // focus back to the grid a frame later): an open menu must never be left behind.
    const escape = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !ref.current?.contains(e.target as Node)) onClose();
    };
    document.addEventListener("keydown", escape, true);
    document.addEventListener("mousedown", away, true);
    window.addEventListener("blur", blur);
    window.addEventListener("resize", blur);
    return () => {
      document.removeEventListener("keydown", escape, true);
      document.removeEventListener("mousedown", away, true);
      window.removeEventListener("blur", blur);
      window.removeEventListener("resize", blur);
    };
  }, [onClose]);

  const step = (d: number) => {
    const at = enabled.indexOf(focus);
    setFocus(enabled[(at + d + enabled.length) % enabled.length]);
  };
  return (
    <div
      ref={ref}
      role="menu"
      aria-label={label}
      className="ctx-menu"
      style={pos}
      onKeyDown={(e) => {
        e.stopPropagation();
        const keys: Record<string, () => void> = {
          ArrowDown: () => step(1),
          ArrowUp: () => step(-1),
          Home: () => setFocus(enabled[0]),
          End: () => setFocus(enabled[enabled.length - 1]),
          Escape: onClose,
          Tab: onClose,
        };
        const fn = keys[e.key];
        if (fn) {
          e.preventDefault();
          fn();
        }
      }}
    >
      {items.map((it, i) => (
        <div key={it.label} role="none">
          {it.separatorBefore && <div role="separator" className="ctx-sep" />}
          <button
            type="button"
            role="menuitem"
            data-i={i}
            tabIndex={i === focus ? 0 : -1}
            disabled={it.disabled}
            title={it.hint}
            className="ctx-item"
            onClick={() => {
              onClose();
              it.run();
            }}
          >
            {it.label}
          </button>
        </div>
      ))}
    </div>
  );
}
