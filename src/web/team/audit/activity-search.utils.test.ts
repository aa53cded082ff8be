import { afterEach, describe, expect, it } from "vitest";
import { droppedFilters, filtersOf, isReversedRange, sanitizeActivitySearch, toAuditFilters, toInstant, toLocalInput, typedMoment } from "./activity-search.utils";

const zone = process.env.TZ;
/** Node reads TZ again when it changes: each test can be a viewer somewhere else. */
const inZone = (tz: string) => {
  process.env.TZ = tz;
};

describe("activity search", () => {
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it("keeps valid filters and drops malformed ones", () => {
    expect(sanitizeActivitySearch({ actor: " ada@example.com ", on: "table:demo/employees", kind: "update" })).toEqual({ actor: "ada@example.com", on: "table:demo/employees", kind: "update", since: undefined, until: undefined, entry: undefined });
    expect(sanitizeActivitySearch({ on: "table:employees", actor: 3 }).on).toBeUndefined();
    // A kind the filter does not offer is not sent for a 400 (review 47b #8); the page says so.
    expect(toAuditFilters(sanitizeActivitySearch({ kind: "storage-job-start" })).kind).toBeUndefined();
    expect(sanitizeActivitySearch({ kind: "a b<script>" }).kind).toBeUndefined();
    expect(sanitizeActivitySearch({ kind: "sign-in-failed" }).kind).toBe("sign-in-failed");
    expect(sanitizeActivitySearch({ on: "bucket:public-assets" }).on).toBe("bucket:public-assets");
  });

  it("keeps times in the URL as instants, the same for a viewer in any zone", () => {
    for (const tz of ["America/Chicago", "Asia/Tokyo", "UTC"]) {
      inZone(tz);
      expect(sanitizeActivitySearch({ since: "2026-11-26T03:17:00.000Z" }).since).toBe("2026-11-26T03:17:00.000Z");
      expect(sanitizeActivitySearch({ until: "2026-11-26T04:17+01:00" }).until).toBe("2026-11-26T03:17:00.000Z");
    }
  });

  it("reads an old link's zoneless time as the viewer's local time", () => {
    inZone("America/Chicago");
    expect(sanitizeActivitySearch({ since: "2026-11-25T21:17" }).since).toBe("2026-11-26T03:17:00.000Z");
    inZone("Asia/Tokyo");
    expect(sanitizeActivitySearch({ since: "2026-11-25T21:17" }).since).toBe("2026-11-25T12:17:00.000Z");
  });

  it("drops what is not a moment", () => {
    for (const v of ["yesterday", "2026-11-25", "2026-13-45T99:00", "1764126000000", 1764126000000, ""]) expect(toInstant(v)).toBeUndefined();
  });

  it("shows an instant in the viewer's zone in the datetime-local inputs, and reads it back", () => {
    inZone("America/Chicago");
    expect(toLocalInput("2026-11-26T03:17:00.000Z")).toBe("2026-11-25T21:17");
    expect(toLocalInput("2026-11-26T03:17:05.000Z")).toBe("2026-11-25T21:17:05");
    expect(toInstant(toLocalInput("2026-11-26T03:17:05.000Z"))).toBe("2026-11-26T03:17:05.000Z");
    inZone("Asia/Tokyo");
    expect(toLocalInput("2026-11-26T03:17:00.000Z")).toBe("2026-11-26T12:17");
    expect(toLocalInput(undefined)).toBe("");
    expect(toLocalInput("nonsense")).toBe("");
  });

  it("keeps the open entry as a whole number, apart from the filters", () => {
    expect(sanitizeActivitySearch({ entry: "42" }).entry).toBe(42);
    expect(sanitizeActivitySearch({ entry: 7 }).entry).toBe(7);
    for (const bad of ["0", "-3", "1.5", "x", "", 2 ** 60]) expect(sanitizeActivitySearch({ entry: bad }).entry).toBeUndefined();
    const s = sanitizeActivitySearch({ actor: "ada@example.com", entry: "9" });
    expect(filtersOf(s)).toEqual({ actor: "ada@example.com", on: undefined, kind: undefined, since: undefined, until: undefined });
    expect(toAuditFilters(s)).not.toHaveProperty("entry");
  });

  it("maps to the API's parameters", () => {
    const f = toAuditFilters({ on: "bucket:team-files", since: "2026-11-25T10:00:00.000Z" });
    expect(f.bucket).toBe("team-files");
    expect(f.table).toBeUndefined();
    expect(f.since).toBe("2026-11-25T10:00:00.000Z");
    expect(toAuditFilters({ on: "table:demo/employees" }).table).toBe("demo/employees");
  });

  it("finds a range whose From is after its To", () => {
    expect(isReversedRange({ since: "2026-11-26T15:00:00.000Z", until: "2026-11-26T14:00:00.000Z" })).toBe(true);
    expect(isReversedRange({ since: "2026-11-26T14:00:00.000Z", until: "2026-11-26T14:00:00.000Z" })).toBe(false);
    expect(isReversedRange({ since: "2026-11-26T14:00:00.000Z", until: "2026-11-26T15:00:00.000Z" })).toBe(false);
    expect(isReversedRange({ since: "2026-11-26T15:00:00.000Z" })).toBe(false);
    expect(isReversedRange({ until: "2026-11-26T15:00:00.000Z" })).toBe(false);
  });
});

describe("typedMoment", () => {
  it("reads a date, or a date and time, typed in the viewer's zone; a date alone is its day's start or end", () => {
    const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) => new Date(y, mo - 1, d, h, mi, s, ms).toISOString();
    expect(typedMoment("2026-11-27 07:02", "from")).toEqual({ ok: true, instant: local(2026, 11, 27, 7, 2) });
    expect(typedMoment("2026-11-27T07:02:30", "to")).toEqual({ ok: true, instant: local(2026, 11, 27, 7, 2, 30, 999) });
    // A To to the minute takes in the whole minute (the entries listed at 07:02 were left out).
    expect(typedMoment("2026-11-27 07:02", "to")).toEqual({ ok: true, instant: local(2026, 11, 27, 7, 2, 59, 999) });
    expect(toLocalInput(local(2026, 11, 27, 7, 2, 59, 999))).toBe("2026-11-27T07:02");
    expect(typedMoment("2026-11-27", "from")).toEqual({ ok: true, instant: local(2026, 11, 27) });
    expect(typedMoment("2026-11-27", "to")).toEqual({ ok: true, instant: local(2026, 11, 27, 23, 59, 59, 999) });
    expect(typedMoment("  ", "from")).toEqual({ ok: true, instant: undefined });
    for (const bad of ["yesterday", "2026-02-30", "2026-11-27 25:00", "11/27/2026", "2026-11-27 7:02"]) expect(typedMoment(bad, "from"), bad).toEqual({ ok: false });
  });
});

describe("filters the address asks for that the page does not show (review 49b #3)", () => {
  const targets = ["table:demo/employees", "bucket:team-files"];
  it("says a kind it does not know, and a table or bucket the reader may not filter by", () => {
    const search = sanitizeActivitySearch({ kind: "storage-job-start", on: "table:demo/catalog" });
    expect(droppedFilters(search, targets)).toEqual([
      '"storage-job-start" is not a kind of entry Activity knows: showing every kind.',
      "You have no access to table demo/catalog, or there is none: showing everything you may read.",
    ]);
    // Nothing to say for what it shows, nor before the tables are known.
    expect(droppedFilters(sanitizeActivitySearch({ kind: "update", on: "table:demo/employees" }), targets)).toEqual([]);
    expect(droppedFilters(search, undefined)).toEqual(['"storage-job-start" is not a kind of entry Activity knows: showing every kind.']);
  });
  it("takes the API's own names, table= and bucket=", () => {
    expect(sanitizeActivitySearch({ table: "demo/catalog" }).on).toBe("table:demo/catalog");
    expect(sanitizeActivitySearch({ bucket: "team-files" }).on).toBe("bucket:team-files");
    expect(sanitizeActivitySearch({ on: "bucket:x", table: "demo/y" }).on).toBe("bucket:x");
  });
});
