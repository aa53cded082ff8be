/** The one date format: the browser's locale, days in UTC, the same text when asked again. */
import { expect, it } from "vitest";
import { formatDateTime, formatDay } from "./dates";

it("formats days in UTC and moments in the locale, the same on every call", () => {
  const day = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
  expect(formatDay("2024-02-29")).toBe(day.format(Date.UTC(2024, 1, 29)));
  expect(formatDay("2024-02-29")).toBe(formatDay("2024-02-29"));
  expect(formatDay("not a day")).toBe("not a day");
  const at = "2026-11-25T10:42:00Z";
  const moment = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  expect(formatDateTime(at)).toBe(moment.format(new Date(at)));
  expect(formatDateTime(at, { seconds: true })).not.toBe(formatDateTime(at));
  expect(formatDateTime(Date.parse(at))).toBe(formatDateTime(at));
  for (const none of [undefined, null, "", "garbage"]) expect(formatDateTime(none)).toBe("—");
  // Past the cache's size, answers stay right.
  for (let i = 0; i < 5000; i++) formatDay(`2000-01-${String((i % 28) + 1).padStart(2, "0")}${i}`);
  expect(formatDay("2024-02-29")).toBe(day.format(Date.UTC(2024, 1, 29)));
});
