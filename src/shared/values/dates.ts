/**
 * Dates and date-times as the service stores them and the app checks them (issue 23 item 1):
 * one rule for both. A date is YYYY-MM-DD and a real calendar day; a date-time is ISO 8601 with
 * a zone (`Z` or ±hh:mm, `T`/`Z` in either case), seconds optional, 1–9 fraction digits (past
 * the third only zeros: a date-time is kept to the millisecond, never cut), whose date part is a
 * real day (2024-02-30T10:00:00Z is refused, never rolled over to March).
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

export function isValidDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  // The proleptic Gregorian calendar, as Date uses (year 0 is a leap year), without making a
  // Date: an import checks every cell of a date column with this.
  const year = +m[1];
  const month = +m[2];
  const day = +m[3];
  // Years 0001–9999: year 0 is no year of the common era (and 0000 sorted before 0001 as text only by luck).
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 ? (leap ? 29 : 28) : DAYS_IN_MONTH[month - 1]);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** ISO 8601 with a zone → canonical UTC form (`2024-05-01T10:00:00.000Z`), or undefined. */
export function normalizeDatetime(s: string): string | undefined {
  if (!DATETIME.test(s) || !isValidDate(s.slice(0, 10))) return undefined;
  // Hours 24+ and minutes/seconds 60+ would roll over silently in Date.parse.
  const [hh, mm, ss] = [s.slice(11, 13), s.slice(14, 16), s.length > 17 && s[16] === ":" ? s.slice(17, 19) : "00"].map(Number);
  if (hh > 23 || mm > 59 || ss > 59) return undefined;
  // Kept to the millisecond: digits past it would be dropped without a word (review 33a #2).
  if (/\.\d{3}0*[1-9]/.test(s)) return undefined;
  const t = Date.parse(s.toUpperCase());
  if (!Number.isFinite(t)) return undefined;
  // An offset can carry 9999-12-31 into year 10000 (or 0001-01-01 into year 0), outside years
  // 0001–9999 ("+010000-…" would also break text order = time order): refused (review 32a #3).
  const iso = new Date(t).toISOString();
  return /^\d{4}-/.test(iso) && !iso.startsWith("0000-") ? iso : undefined;
}

export function isValidDateTime(s: string): boolean {
  return normalizeDatetime(s) !== undefined;
}
