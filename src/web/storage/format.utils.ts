/** Sizes, dates, link lifetimes and file kinds as the bucket browser shows them. */
import { formatDateTime } from "../ui/dates";
import { extensionOf } from "./paths.utils";

/**
 * 1024-based, so named as such (review 51b #6: 130,000,000 bytes read "124 MB"), as the
 * service's own messages name their limits ("1 MiB").
 */
const UNITS = ["B", "KiB", "MiB", "GiB", "TiB"];

/** 1,536 → "1.5 KiB"; one decimal below 10. */
export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return "—";
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  if (u === 0) return `${bytes} B`;
  const s = v < 10 ? v.toFixed(1) : Math.round(v).toString();
  return `${s.replace(/\.0$/, "")} ${UNITS[u]}`;
}

/** A file's time in the app's one date format (src/web/ui/dates.ts), as the grid shows its datetimes. */
export const formatDate = (iso: string | number | undefined): string => formatDateTime(iso);

export interface Lifetime {
  seconds: number;
  label: string;
}

/** Signed URL lifetimes offered when the upstream takes expiresIn (1 s … 7 days). */
export const LIFETIMES: Lifetime[] = [
  { seconds: 300, label: "5 minutes" },
  { seconds: 900, label: "15 minutes" },
  { seconds: 3600, label: "1 hour" },
  { seconds: 6 * 3600, label: "6 hours" },
  { seconds: 86400, label: "1 day" },
  { seconds: 7 * 86400, label: "7 days" },
];
export const DEFAULT_LIFETIME = 3600;

/**
 * "Expires at 2026-11-21 15:05 (in 1 hour)". `at` (epoch ms, from the URL's Expires) wins over
 * the asked-for lifetime when they differ by more than a minute: it is what the service enforces.
 */
export function describeExpiry(seconds: number, now: number = Date.now(), at?: number): string {
  let s = seconds;
  if (at !== undefined && Math.abs(at - (now + seconds * 1000)) > 60_000) s = Math.max(60, Math.round((at - now) / 60_000) * 60);
  const label = LIFETIMES.find((l) => l.seconds === s)?.label ?? humanDuration(s);
  return `Expires at ${formatDate(at ?? now + s * 1000)} (in ${label})`;
}

export function humanDuration(seconds: number): string {
  const units: [number, string][] = [
    [86400, "day"],
    [3600, "hour"],
    [60, "minute"],
    [1, "second"],
  ];
  for (const [size, name] of units) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${name}${n === 1 ? "" : "s"}`;
    }
  }
  return `${seconds} seconds`;
}

/** Expiry read back from a signed URL's Expires parameter (epoch seconds), if present. */
export function expiresFromUrl(url: string): number | undefined {
  try {
    const v = new URL(url).searchParams.get("Expires");
    const n = v === null ? Number.NaN : Number(v);
    return Number.isFinite(n) ? n * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export type FileKind = "image" | "pdf" | "text" | "video" | "audio" | "archive" | "other";

const TEXT_EXT = new Set(["txt", "md", "csv", "tsv", "json", "log", "xml", "yaml", "yml", "html", "css", "js", "ts", "ini", "toml"]);
const IMAGE_EXT = new Set(["png", "jpg", "jpeg", "gif", "webp", "avif", "tif", "tiff", "svg"]);

/** SVG scales by itself: the service sends it unchanged whatever w/h say, so none are asked for. */
export function isVectorImage(contentType: string | undefined, key: string): boolean {
  return (contentType ?? "").toLowerCase().startsWith("image/svg") || extensionOf(key) === "svg";
}
const ARCHIVE_EXT = new Set(["zip", "gz", "tgz", "tar", "7z", "rar", "bz2", "xz"]);

/** What a file is, from its content type first and its extension second. */
export function fileKind(contentType: string | undefined, key: string): FileKind {
  const ct = (contentType ?? "").toLowerCase().split(";")[0].trim();
  const ext = extensionOf(key);
  // SVG is an image too: drawn by <img>, its scripts never run (and the service sends it sandboxed).
  if (ct.startsWith("image/") || ext === "svg") return "image";
  if (ct === "application/pdf") return "pdf";
  if (ct.startsWith("text/") || ct === "application/json" || ct === "application/xml") return "text";
  if (ct.startsWith("video/")) return "video";
  if (ct.startsWith("audio/")) return "audio";
  if (ct && ct !== "application/octet-stream") {
    if (/zip|gzip|tar|compressed|x-7z/.test(ct)) return "archive";
    return "other";
  }
  if (IMAGE_EXT.has(ext)) return "image";
  if (ext === "pdf") return "pdf";
  if (TEXT_EXT.has(ext)) return "text";
  if (ARCHIVE_EXT.has(ext)) return "archive";
  return "other";
}

/** Short type label for the list's Type column ("PNG image", "PDF", "Text"). */
export function typeLabel(contentType: string | undefined, key: string): string {
  const kind = fileKind(contentType, key);
  const ext = extensionOf(key).toUpperCase();
  if (ext === "SVG") return "SVG image";
  switch (kind) {
    case "image":
      return `${ext || "Image"}${ext ? " image" : ""}`;
    case "pdf":
      return "PDF document";
    case "text":
      return ext ? `${ext} text` : "Text";
    case "video":
      return "Video";
    case "audio":
      return "Audio";
    case "archive":
      return `${ext || "Archive"} archive`.replace("Archive archive", "Archive");
    default:
      return contentType && contentType !== "application/octet-stream" ? contentType : ext ? `${ext} file` : "File";
  }
}

/**
 * An older version's download is named for it (`report (version 2).pdf`): under the file's own
 * name it could not be told from a download of the newest (review 48b #5).
 */
export function versionFileName(name: string, n: number): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `${name.slice(0, dot)} (version ${n})${name.slice(dot)}` : `${name} (version ${n})`;
}
