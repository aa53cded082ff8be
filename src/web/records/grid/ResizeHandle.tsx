/**
 * The right edge of a column header: drag it to change the column's width. From the keyboard,
 * Alt+←/→ on the header (GridHeader) does the same, so the header stays one tab stop; the
 * separator keeps its value for screen readers and takes ←/→ when clicked into focus.
 */
import type { GridColumn } from "./columns.utils";
import { MAX_COL_W, MIN_COL_W } from "./column-widths-store";
import "./grid-comfort.css";

export function ResizeHandle({ col, onResize }: { col: GridColumn; onResize(key: string, width: number): void }) {
  const clamp = (w: number) => Math.max(MIN_COL_W, Math.min(MAX_COL_W, Math.round(w)));
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize column ${col.key}`}
      aria-valuenow={col.width}
      aria-valuemin={MIN_COL_W}
      aria-valuemax={MAX_COL_W}
      tabIndex={-1}
      className="col-resize"
      title="Drag to resize (or Alt+←/→ on the column's header)"
      onClick={(e) => e.stopPropagation()}
      onPointerDown={(e) => {
        e.preventDefault();
        e.stopPropagation();
        const el = e.currentTarget;
        el.setPointerCapture(e.pointerId);
        const x0 = e.clientX;
        const w0 = col.width;
        const move = (ev: PointerEvent) => onResize(col.key, clamp(w0 + ev.clientX - x0));
        const up = () => {
          el.removeEventListener("pointermove", move);
          el.removeEventListener("pointerup", up);
          el.removeEventListener("pointercancel", up);
        };
        el.addEventListener("pointermove", move);
        el.addEventListener("pointerup", up);
        el.addEventListener("pointercancel", up);
      }}
      onKeyDown={(e) => {
        const step = e.shiftKey ? 50 : 10;
        if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
          e.preventDefault();
          e.stopPropagation();
          onResize(col.key, clamp(col.width + (e.key === "ArrowRight" ? step : -step)));
        }
      }}
    />
  );
}
