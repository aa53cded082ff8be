import { describe, expect, it } from "vitest";
import { sanitizeActivitySearch, toAuditFilters } from "./activity-search.utils";

describe("activity search", () => {
  it("keeps valid filters and drops malformed ones", () => {
    expect(sanitizeActivitySearch({ actor: " ada@example.com ", on: "table:demo/employees", kind: "update" })).toEqual({ actor: "ada@example.com", on: "table:demo/employees", kind: "update", since: undefined, until: undefined });
    expect(sanitizeActivitySearch({ on: "table:employees", actor: 3 }).on).toBeUndefined();
    expect(sanitizeActivitySearch({ on: "bucket:public-assets" }).on).toBe("bucket:public-assets");
  });
  it("maps to the API's parameters, local times to ISO", () => {
    const f = toAuditFilters({ on: "bucket:team-files", since: "2026-11-25T10:00" });
    expect(f.bucket).toBe("team-files");
    expect(f.table).toBeUndefined();
    expect(f.since).toBe(new Date("2026-11-25T10:00").toISOString());
  });
});
