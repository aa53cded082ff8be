/** The live stream's events as the app receives them (src/server/team/events/live-event.ts). */
export interface LiveChange {
  id: number;
  at: string;
  kind: "update" | "insert" | "delete-records" | "import" | "upload" | "delete-file" | "storage-job";
  resource: string;
  table?: string;
  bucket?: string;
  records?: { key: unknown; values?: Record<string, unknown> }[];
  keys?: string[];
  /** A storage job's action: its event comes once it has ended. */
  job?: "move" | "copy" | "delete";
  /** A storage job's source and destination (a key, or a folder ending in "/"). */
  from?: string;
  to?: string;
  /** A storage job cancelled part way: `count` files were done. */
  cancelled?: boolean;
  fields?: string[];
  count?: number;
  truncated?: boolean;
  actor: { email: string; name: string };
  origin: "baseboard" | "outside";
  tab?: string;
}

export interface LivePresence {
  email: string;
  name: string;
  tab: string;
  view: string | null;
  record?: string;
  editing?: { record: string; field: string };
  until: number;
}
