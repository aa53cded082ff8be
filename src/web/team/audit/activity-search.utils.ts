/**
 * The Activity page's filters as URL search params (shareable), validated. Times travel as
 * instants (ISO with `Z`) so a shared link shows the same window in every time zone; only the
 * datetime-local inputs show them in the viewer's own zone.
 */
import { AUDIT_KINDS } from "../../../shared/audit-kinds";

export interface ActivitySearch {
  actor?: string;
  /** "table:<db>/<slug>" or "bucket:<name>". */
  on?: string;
  kind?: string;
  /** An instant, "2026-11-26T03:17:00.000Z". */
  since?: string;
  until?: string;
  /**
   * The entry shown open (its seq): kept in the address, so that Back from its Record or file
   * link finds it open where it was (review 53b #9: the entries came back collapsed).
   */
  entry?: number;
}

/** The page's filters alone (not which entry is open). */
export const filtersOf = ({ entry: _entry, ...filters }: ActivitySearch): Omit<ActivitySearch, "entry"> => filters;

const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

// Only the forms the inputs and this module write: a zoneless value is local time (as in links
// made before instants were used, and as the Date parser reads it); anything else is dropped.
const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;

/** A URL or input time as an instant ("…Z"), or undefined when it is not one. */
export function toInstant(v: unknown): string | undefined {
  const s = str(v);
  if (!s || !MOMENT.test(s)) return undefined;
  const t = new Date(s);
  return Number.isNaN(t.getTime()) ? undefined : t.toISOString();
}

const pad = (n: number) => String(n).padStart(2, "0");

/** An instant as a datetime-local input's value, in the viewer's zone ("" when there is none). */
export function toLocalInput(instant: string | undefined): string {
  const t = instant ? new Date(instant) : undefined;
  if (!t || Number.isNaN(t.getTime())) return "";
  // A To through the end of its minute (…:59.999, as typedMoment makes it) shows as that minute.
  const s = t.getSeconds() === 59 && t.getMilliseconds() === 999 ? 0 : t.getSeconds();
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}${s ? `:${pad(s)}` : ""}`;
}

/**
 * A time typed in a From or To box, in the viewer's zone: "2026-11-27", "2026-11-27 07:02" (or
 * with a T, or seconds). A date alone is the start of that day for From, its end for To. The
 * browser's datetime box read typed keys in its locale's order and dropped "2026-11-27 07:02".
 */
export function typedMoment(text: string, end: "from" | "to"): { ok: true; instant: string | undefined } | { ok: false } {
  const t = text.trim();
  if (t === "") return { ok: true, instant: undefined };
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  if (!m) return { ok: false };
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const timed = m[4] !== undefined;
  // A To names the whole of what it says: a day to its last instant, a minute (09:31) to 09:31:59.999
  // (it left out the entries listed at 09:31), a second to its end.
  const [h, mi, se] = timed ? [Number(m[4]), Number(m[5]), m[6] !== undefined ? Number(m[6]) : end === "to" ? 59 : 0] : end === "from" ? [0, 0, 0] : [23, 59, 59];
  const at = new Date(y, mo - 1, d, h, mi, se, end === "to" ? 999 : 0);
  // Not a day of the calendar (2026-02-30) or an hour of the clock: refused, not rolled over.
  if (at.getFullYear() !== y || at.getMonth() !== mo - 1 || at.getDate() !== d || at.getHours() !== h || at.getMinutes() !== mi || h > 23 || mi > 59 || se > 59) return { ok: false };
  return { ok: true, instant: at.toISOString() };
}

/** An instant as the From and To boxes show it, in the viewer's zone ("" when there is none). */
export const typedText = (instant: string | undefined) => toLocalInput(instant).replace("T", " ");

/** The kinds the Kind filter offers: the API's own list. */
export const ACTIVITY_KINDS = AUDIT_KINDS;
/** `kind` when the filter offers it, else undefined (not sent, not selected). */
export const knownKind = (kind: string | undefined) => (kind && (ACTIVITY_KINDS as readonly string[]).includes(kind) ? kind : undefined);

export function sanitizeActivitySearch(raw: Record<string, unknown>): ActivitySearch {
  // The API's own names (table=, bucket=) are the page's `on` too: a link written from the API works.
  const on = str(raw.on) ?? (str(raw.table) ? `table:${str(raw.table)}` : str(raw.bucket) ? `bucket:${str(raw.bucket)}` : undefined);
  const kind = str(raw.kind);
  return {
    actor: str(raw.actor),
    on: on && /^(table:[^/\s]+\/[^/\s]+|bucket:\S+)$/.test(on) ? on : undefined,
    // A kind the filter does not offer stays in the address, is not sent (review 47b #8: the API's
    // 400 left an empty list that said nothing), and the page says so (droppedFilters).
    kind: kind && /^[\w-]{1,60}$/.test(kind) ? kind : undefined,
    since: toInstant(raw.since),
    until: toInstant(raw.until),
    entry: openEntry(raw.entry),
  };
}

/** An entry's seq from the address (a whole number from 1), else undefined. */
function openEntry(v: unknown): number | undefined {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The API's filters from the page's. */
export function toAuditFilters(s: ActivitySearch): Record<string, string | undefined> {
  return {
    actor: s.actor,
    table: s.on?.startsWith("table:") ? s.on.slice(6) : undefined,
    bucket: s.on?.startsWith("bucket:") ? s.on.slice(7) : undefined,
    kind: knownKind(s.kind),
    since: toInstant(s.since),
    until: toInstant(s.until),
  };
}

/** From after To: nothing can match, so the page says so instead of asking. */
export function isReversedRange(s: Pick<ActivitySearch, "since" | "until">): boolean {
  const since = toInstant(s.since);
  const until = toInstant(s.until);
  return since !== undefined && until !== undefined && since > until;
}

/**
 * What the address asked for that the page does not show, said in words (review 49b #3: a table
 * hidden from the reader, or a kind it does not know, was dropped without a word and the whole
 * log looked like the answer). `targets`: the tables and buckets the reader may filter by
 * (undefined while they load).
 */
export function droppedFilters(search: ActivitySearch, targets: readonly string[] | undefined): string[] {
  const notes: string[] = [];
  if (search.kind && !knownKind(search.kind)) notes.push(`"${search.kind}" is not a kind of entry Activity knows: showing every kind.`);
  if (search.on && targets && !targets.includes(search.on)) notes.push(`You have no access to ${search.on.replace(":", " ")}, or there is none: showing everything you may read.`);
  return notes;
}
