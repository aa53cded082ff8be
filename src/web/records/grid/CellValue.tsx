/** How a value looks in a cell, by field type; NULL and "" look different on purpose. */
import { memo } from "react";
import type { RecordValue } from "../../../shared/records";
import type { GridColumn } from "./columns.utils";
import { formatValue, objectUrl, thumbnailUrl } from "../values/values.utils";
import { PaperclipIcon } from "../../ui/icons";

export const THUMB_W = 44;
export const THUMB_H = 24;

export const CellValue = memo(function CellValue({ col, value }: { col: GridColumn; value: RecordValue | undefined }) {
  if (value === undefined) return null;
  if (value === null) return <span className="v-null">NULL</span>;
  if (value === "") return <span className="v-empty">empty</span>;
  const { type, bucket } = col.field;
  if (type === "image" && typeof value === "string" && bucket) {
    const dpr = typeof window === "undefined" ? 1 : window.devicePixelRatio;
    return (
      <img
        className="thumb"
        src={thumbnailUrl(bucket, value, THUMB_W, THUMB_H, dpr)}
        width={THUMB_W}
        height={THUMB_H}
        alt={value}
        title={value}
        loading="lazy"
        decoding="async"
      />
    );
  }
  if (type === "attachment" && typeof value === "string" && bucket) {
    return (
      <a className="v-link" href={objectUrl(bucket, value)} target="_blank" rel="noopener noreferrer" title={`${bucket}/${value}`} onClick={(e) => e.stopPropagation()}>
        <PaperclipIcon /> {value.split("/").pop()}
      </a>
    );
  }
  if (type === "boolean") return <span className={`v-bool ${value ? "t" : "f"}`}>{value ? "true" : "false"}</span>;
  const text = formatValue(type, value);
  return (
    <span className={type === "json" ? "mono" : undefined} title={type === "date" || type === "datetime" ? String(value) : undefined}>
      {text}
    </span>
  );
});
