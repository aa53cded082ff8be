/**
 * One byte range per request (interface §4.4, issue 3): `0-0`, `7-`, `-5`, an end past the file
 * clamped. Several ranges are answered with the whole file (RFC 9110 lets a server ignore Range),
 * so overlapping ranges can never multiply the work or the memory.
 */

export type RangeResult =
  | { kind: "full" }
  | { kind: "partial"; start: number; end: number }
  | { kind: "unsatisfiable" };

const SINGLE = /^bytes=(\d*)-(\d*)$/i;

export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return { kind: "full" };
  const value = header.trim();
  // A unit other than bytes (RFC 9110 §14.2: MUST be ignored) or several ranges: the whole file.
  if (!/^bytes=/i.test(value) || /^bytes=[^,]*,/i.test(value)) return { kind: "full" };
  const m = SINGLE.exec(value);
  if (!m || (m[1] === "" && m[2] === "")) return { kind: "unsatisfiable" };
  if (m[1] === "") {
    // Suffix: the last N bytes.
    // A suffix longer than the file (however long) is the whole file.
    const n = Number(m[2]);
    if (n === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return { kind: "unsatisfiable" };
  if (m[2] !== "" && Number(m[2]) < start) return { kind: "unsatisfiable" };
  return { kind: "partial", start, end };
}

export const contentRange = (r: { start: number; end: number }, size: number) => `bytes ${r.start}-${r.end}/${size}`;
