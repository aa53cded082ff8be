/**
 * What the live stream carries (GET /api/events, server-sent events). A change event names the
 * table or bucket, the Records (primary key and new values) or object keys, the changed Fields,
 * who made it and when; presence says who has which table or bucket (and Record) open.
 */
import type { Resource } from "../contract";

/** At most this many Records (or keys) ride in one event; beyond it the event says `truncated`. */
export const EVENT_RECORDS_MAX = 1_000;

export interface ChangeEvent {
  /** Increasing within one stream; the SSE id, for Last-Event-ID. */
  id: number;
  at: string;
  kind: "update" | "insert" | "delete-records" | "import" | "upload" | "delete-file" | "storage-job";
  resource: Resource;
  table?: string;
  bucket?: string;
  /** Records touched: primary key, and for updates and inserts the new values. */
  records?: { key: unknown; values?: Record<string, unknown> }[];
  /** Object keys touched (storage). */
  keys?: string[];
  /** A storage job's action (sent when the job has ended, when its files have moved). */
  job?: "move" | "copy" | "delete";
  /** A storage job's source and (move, copy) destination: a key, or a folder ending in "/". */
  from?: string;
  to?: string;
  /** A storage job cancelled part way: `count` files were done, and stay done. */
  cancelled?: boolean;
  /** The Fields an update set (its changed Fields). */
  fields?: string[];
  /** How many Records or objects the change touched (when known). */
  count?: number;
  /** More Records than EVENT_RECORDS_MAX: the event lists none; clients refetch. */
  truncated?: boolean;
  actor: { email: string; name: string };
  /** "baseboard": through a proxy; "outside": another client of the service. */
  origin: "baseboard" | "outside";
  /** The browser tab that made it (its x-baseboard-tab header), so that tab can skip its own echo. */
  tab?: string;
}

export type NewChangeEvent = Omit<ChangeEvent, "id">;

export interface PresenceState {
  email: string;
  name: string;
  /** One browser tab; a person may have several. */
  tab: string;
  /** "table:<db>/<slug>" or "bucket:<name>"; null when they left. */
  view: Resource | null;
  /** The Record open in their panel (primary key as text). */
  record?: string;
  /** The cell they are editing. */
  editing?: { record: string; field: string };
  /** Epoch ms after which this state is stale unless renewed. */
  until: number;
}

export function resourceParts(r: Resource): { table?: string; bucket?: string } {
  return r.startsWith("table:") ? { table: r.slice(6) } : { bucket: r.slice(7) };
}

/** One SSE frame. Data is one line of JSON (JSON never holds a raw newline). */
export function sseFrame(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
