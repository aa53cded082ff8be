/**
 * `npm run people` on PostgreSQL (BASEBOARD_DATABASE_URL): each command says what it did or what
 * went wrong, exits accordingly, and its outcome is in the activity log (it once printed nothing,
 * exited 0 whatever happened, and left every outcome unwritten).
 */
import { spawnSync } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { commandArgs } from "../../service/testing/service-entry";
import { createTestDatabase, type TestDatabase } from "../../service/engines/postgres/testing/test-database";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase(inject("pgAdminUrl"));
});
afterAll(async () => {
  await db?.drop();
});

function people(args: string[], input = "") {
  const r = spawnSync(process.execPath, [...commandArgs("team/people/cli"), ...args], {
    input,
    encoding: "utf8",
    env: { ...process.env, BASEBOARD_DATABASE_URL: db.url },
    timeout: 30_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("npm run people on PostgreSQL", () => {
  it("says what each command did or why it failed, exits accordingly, and records how each ended", async () => {
    expect(people(["add", "vera@example.com", "--role", "viewer"], "a perfectly long passphrase\n")).toEqual({ code: 0, out: "Added vera@example.com (vera) as viewer.\n" });
    expect(people(["set-role", "vera@example.com", "editor"])).toEqual({ code: 0, out: "vera@example.com is now editor.\n" });
    expect(people(["add", "weak@example.com", "--role", "viewer"], "short\n")).toMatchObject({ code: 1, out: expect.stringMatching(/at least 12 characters/) });
    expect(people(["disable", "nobody@example.com"])).toMatchObject({ code: 1, out: expect.stringMatching(/nobody@example.com/) });
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const outcomes = (await c.query<{ outcome: string }>("SELECT detail::json->>'outcome' AS outcome FROM bb_audit WHERE kind = 'outcome' ORDER BY seq")).rows.map((r) => r.outcome);
      expect(outcomes).toEqual(["applied", "applied", "failed", "failed"]);
    } finally {
      await c.end();
    }
  });
});
