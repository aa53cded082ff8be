/**
 * The right edge of a column header: drag it, or focus it and press ←/→ (Shift: by 50 px), to
 * change the column's width. A separator with a value, as ARIA describes a splitter.
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
      tabIndex={0}
      className="col-resize"
      title="Drag, or focus and press ←/→, to resize"
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
