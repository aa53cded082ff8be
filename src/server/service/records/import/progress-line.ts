import type { ImportProgress } from "./csv-import";

/**
 * The CLI's progress line. DuckDB's progress for building the key index stops at 50% for most
 * of the build (tens of seconds at 10M rows), so each line also says how long the phase has run:
 * a line that keeps counting is one the user can tell from a hung import.
 */
export function progressLine(p: ImportProgress, phaseSeconds: number): string {
  const done = p.rows !== undefined ? `${p.rows.toLocaleString("en-US")} rows` : `${Math.round((p.fraction ?? 0) * 100)}%`;
  return `${p.phase}: ${done} (${Math.floor(phaseSeconds)} s)`;
}

/** How often a log (not a terminal) gets a line when nothing but the time has changed. */
export const QUIET_LINE_EVERY_S = 10;

/**
 * Follows the progress reports: which line to show now, if any. A terminal's line is rewritten
 * on every report; a log gets a line when the phase or its amount changes, or every
 * QUIET_LINE_EVERY_S seconds (reports come twice a second: one line each would flood it).
 */
export function progressPrinter(tty: boolean, now: () => number = () => performance.now()) {
  let phase: string | undefined;
  let phaseStart = 0;
  let lastShown = "";
  let lastAt = 0;
  return (p: ImportProgress): string | undefined => {
    const t = now();
    if (p.phase !== phase) {
      phase = p.phase;
      phaseStart = t;
    }
    const line = progressLine(p, (t - phaseStart) / 1000);
    if (tty) return line;
    const amount = line.slice(0, line.lastIndexOf(" ("));
    if (amount === lastShown && t - lastAt < QUIET_LINE_EVERY_S * 1000) return undefined;
    lastShown = amount;
    lastAt = t;
    return line;
  };
}
