import { expect, it } from "vitest";
import { parseIsoTime } from "./iso-time";

it("takes ISO dates and times, with or without seconds, fraction and zone", () => {
  expect(parseIsoTime("2026-11-25")).toBe(Date.parse("2026-11-25T00:00:00Z"));
  expect(parseIsoTime("2026-11-25T10:00:00Z")).toBe(Date.parse("2026-11-25T10:00:00Z"));
  expect(parseIsoTime("2026-11-25T10:00:00.250+02:00")).toBe(Date.parse("2026-11-25T08:00:00.250Z"));
  expect(parseIsoTime(" 2024-02-29T23:59Z ")).toBe(Date.parse("2024-02-29T23:59:00Z"));
});

it("refuses what is not ISO and dates or times that do not exist", () => {
  for (const raw of ["1", "tomorrow", "2026-02-30", "2025-02-29", "2026-13-01", "2026-00-10", "2026-11-25T24:00Z", "2026-11-25T10:60Z", "2026-11-25T10:00:61Z", ""]) {
    expect(parseIsoTime(raw), raw).toBeUndefined();
  }
});
