/**
 * The app's one way to show a moment and a day (issue 23.7): the browser's own locale and time
 * zone ("Nov 25, 2026, 04:44 PM" in en-US, "25 nov. 2026, 16:44" in fr-FR), used by the grid,
 * the record panel, storage listings, previews, details and the activity log alike. Dates
 * without a time are calendar days and shown in UTC, so a day never shifts by a zone.
 * Formatters are made once: creating one per call costs about a millisecond.
 */
const dateTime = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
const day = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

const valid = (d: Date) => !Number.isNaN(d.getTime());

/** A moment (ISO text, epoch ms or Date) in the one format; "—" when there is none. */
export function formatDateTime(at: string | number | Date | undefined | null, opts: { seconds?: boolean } = {}): string {
  if (at === undefined || at === null || at === "") return "—";
  if (typeof at === "string") return remembered(`${opts.seconds ? "s" : "t"}${at}`, () => formatMoment(new Date(at), opts));
  return formatMoment(at instanceof Date ? at : new Date(at), opts);
}

function formatMoment(d: Date, opts: { seconds?: boolean }): string {
  if (!valid(d)) return "—";
  return (opts.seconds ? dateTimeSeconds : dateTime).format(d);
}

/**
 * Texts already formatted: the grid formats every date cell of each row it paints while
 * scrolling, and a column holds a few thousand distinct days at most. Emptied when full.
 */
const formatted = new Map<string, string>();
function remembered(key: string, format: () => string): string {
  let text = formatted.get(key);
  if (text === undefined) {
    if (formatted.size >= 4096) formatted.clear();
    text = format();
    formatted.set(key, text);
  }
  return text;
}

/** A calendar day "YYYY-MM-DD" in the one format. */
export function formatDay(isoDay: string): string {
  return remembered(`d${isoDay}`, () => {
    const d = new Date(`${isoDay}T00:00:00Z`);
    return valid(d) ? day.format(d) : isoDay;
  });
}
