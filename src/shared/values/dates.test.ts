/** isValidDate's calendar arithmetic against Date's own proleptic Gregorian calendar. */
import { expect, it } from "vitest";
import { isValidDate, normalizeDatetime } from "./dates";

function byDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(0);
  d.setUTCFullYear(+m[1], +m[2] - 1, +m[3]);
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

it("agrees with Date on every day shape of leap, century and ordinary years (0001–9999)", () => {
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  const years = [1, 4, 99, 100, 400, 1900, 1999, 2000, 2023, 2024, 2100, 2400, 9996, 9999];
  let accepted = 0;
  for (const y of years)
    for (let m = 0; m <= 13; m++)
      for (let d = 0; d <= 32; d++) {
        const s = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
        expect(isValidDate(s), s).toBe(byDate(s));
        if (byDate(s)) accepted++;
      }
  // 6 leap years (4, 400, 2000, 2024, 2400, 9996) and 8 others.
  expect(accepted).toBe(6 * 366 + 8 * 365);
  for (const bad of ["2024-2-01", "2024-02-1", "20240201", "2024-02-01T00:00:00Z", " 2024-02-01", "abcd-ef-gh"]) expect(isValidDate(bad), bad).toBe(false);
});

it("years 0001–9999 only, in UTC: year 0000 is refused, as a date and where an offset carries a date-time into it (review 32a #3)", () => {
  for (const d of ["0000-01-01", "0000-02-29", "0000-12-31"]) expect(isValidDate(d), d).toBe(false);
  expect(isValidDate("0001-01-01")).toBe(true);
  expect(normalizeDatetime("0000-06-01T00:00:00Z")).toBeUndefined();
  expect(normalizeDatetime("0001-01-01T00:30:00+01:00")).toBeUndefined();
  expect(normalizeDatetime("0001-01-01T00:30:00Z")).toBe("0001-01-01T00:30:00.000Z");
  expect(normalizeDatetime("0001-01-01T00:30:00-01:00")).toBe("0001-01-01T01:30:00.000Z");
  expect(normalizeDatetime("9999-12-31T23:30:00-01:00")).toBeUndefined();
  expect(normalizeDatetime("9999-12-31T23:30:00+01:00")).toBe("9999-12-31T22:30:00.000Z");
});

it("kept to the millisecond: digits past it must be zeros, never dropped (review 33a #2)", () => {
  expect(normalizeDatetime("2030-01-01T00:00:00.123Z")).toBe("2030-01-01T00:00:00.123Z");
  expect(normalizeDatetime("2030-01-01T00:00:00.123000000Z")).toBe("2030-01-01T00:00:00.123Z");
  expect(normalizeDatetime("2030-01-01T00:00:00.5Z")).toBe("2030-01-01T00:00:00.500Z");
  for (const cut of ["2030-01-01T00:00:00.123456789Z", "2030-01-01T00:00:00.1239Z", "2030-01-01T00:00:00.0001Z", "2030-01-01T00:00:00.000000001+02:00"]) {
    expect(normalizeDatetime(cut), cut).toBeUndefined();
  }
});
