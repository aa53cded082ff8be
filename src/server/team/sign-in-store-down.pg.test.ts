/**
 * Signing in while Baseboard's own store (PostgreSQL, BASEBOARD_DATABASE_URL) cannot be reached:
 * the sign-in page again with the reason, a 503 to retry, not a JSON error body in the browser.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../service/engines/postgres/testing/test-database";
import { startTestBaseboard, type TestBaseboard } from "../proxy/testing/test-baseboard";
import { createPeopleAdmin } from "./people/people-admin";
import { openPostgresTeamStore } from "./store/postgres-store";
import { waitForMode } from "./testing/team-stack";

const PW = "a perfectly long passphrase";
let db: TestDatabase;
let board: TestBaseboard;

beforeAll(async () => {
  db = await createTestDatabase(inject("pgAdminUrl"));
  const store = await openPostgresTeamStore(db.url);
  await createPeopleAdmin(store).add({ email: "eve@example.com", role: "editor", password: PW });
  await store.close();
  board = await startTestBaseboard({ BASEBOARD_DATABASE_URL: db.url });
  await waitForMode(board.url, "people");
}, 120_000);
afterAll(async () => {
  await board?.stop();
  await db?.drop();
});

describe("a sign-in PostgreSQL cannot be asked about", () => {
  it("a NUL in the email is a plain miss (401, recorded), not a 500", async () => {
    const res = await fetch(`${board.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: board.url, "content-type": "application/x-www-form-urlencoded" },
      body: "email=eve%00%40example.com&password=whatever-it-is",
    });
    expect(res.status, board.logs.join("\n")).toBe(401);
    expect(await res.text()).toContain("That email and password do not match");
  });
});

describe("signing in while the store is down", () => {
  it("shows the sign-in page with the reason (503), /api/health says the store is down, and both recover", async () => {
    const name = new URL(db.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: inject("pgAdminUrl") });
    await admin.connect();
    const signIn = () =>
      fetch(`${board.url}/login`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: board.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: "eve@example.com", password: PW, next: "/" }).toString(),
      });
    const before = await signIn();
    const cookie = /bb_sid=[^;]+/.exec(before.headers.get("set-cookie") ?? "")?.[0] ?? "";
    expect(cookie).not.toBe("");
    try {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]);
      const down = await signIn();
      expect(down.status, board.logs.join("\n")).toBe(503);
      expect(down.headers.get("content-type")).toMatch(/text\/html/);
      const page = await down.text();
      expect(page).toContain("Signing in is not possible right now: Baseboard&#39;s own store (people and sessions) cannot be reached.");
      expect(page).toMatch(/<form method="post" action="\/login">/);
      // A read is told the store cannot be reached, not that it "cannot be written" (review 39a #8).
      const me = await fetch(`${board.url}/api/me`, { headers: { cookie } });
      expect(me.status).toBe(503);
      expect(me.headers.get("retry-after")).toBe("5");
      const said = (await me.json()).message;
      expect(said).toMatch(/^Baseboard's own store \(people, sessions, the activity log\) cannot be reached\./);
      expect(said).not.toMatch(/written/);
      // The badge's source says so too, rather than staying green while every change is refused.
      await expect.poll(async () => {
        const h = await fetch(`${board.url}/api/health`);
        return [h.status, (await h.json()).store];
      }, { timeout: 5_000 }).toEqual([503, "down"]);
    } finally {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    await expect.poll(async () => (await signIn()).status, { timeout: 15_000 }).toBe(303);
    await expect.poll(async () => {
      const h = await fetch(`${board.url}/api/health`);
      return [h.status, (await h.json()).store];
    }, { timeout: 5_000 }).toEqual([200, "up"]);
  }, 60_000);
});
