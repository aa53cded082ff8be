/**
 * A time as `/api/audit` and `npm run audit -- export` take it (pure): an ISO date, or a date and
 * time, with a zone to be exact (without one, the machine's local time). Not whatever Date.parse
 * accepts ("1" is 2001), and no date that does not exist (2026-02-30 would roll into March).
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export function parseIsoTime(raw: string): number | undefined {
  const m = ISO.exec(raw.trim());
  if (!m) return undefined;
  const [year, month, day, hour = "0", minute = "0", second = "0"] = m.slice(1, 7);
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > daysInMonth) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const t = Date.parse(raw.trim());
  return Number.isFinite(t) ? t : undefined;
}
