/**
 * Live events across two proxies on one PostgreSQL (BASEBOARD_DATABASE_URL): an edit made
 * through one reaches a subscriber of the other (LISTEN/NOTIFY, payload by reference), with the
 * same event id on both, and a subscriber of the second resumes from that id after a break.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../service/engines/postgres/testing/test-database";
import { fromApp, startTestBaseboard, type TestBaseboard } from "../../proxy/testing/test-baseboard";
import { createPeopleAdmin } from "../people/people-admin";
import { openPostgresTeamStore } from "../store/postgres-store";
import { createPostgresBus } from "./postgres-bus";
import type { ChangeEvent } from "./live-event";
import type { TeamStore } from "../store/team-store";
import { signIn, waitForMode } from "../testing/team-stack";
import { dataOf, openSse } from "../testing/sse-client";

const PW = "a perfectly long passphrase";
let db: TestDatabase;
let store: TeamStore;
let a: TestBaseboard;
let b: TestBaseboard;

beforeAll(async () => {
  db = await createTestDatabase(inject("pgAdminUrl"));
  store = await openPostgresTeamStore(db.url);
  await createPeopleAdmin(store).add({ email: "eve@example.com", role: "editor", password: PW, name: "Eve" });
  a = await startTestBaseboard({ BASEBOARD_DATABASE_URL: db.url });
  b = await startTestBaseboard({ BASEBOARD_DATABASE_URL: db.url });
  await waitForMode(a.url, "people");
  await waitForMode(b.url, "people");
}, 120_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await store?.close();
  await db?.drop();
});

describe("live events over PostgreSQL", () => {
  it("an edit through one proxy reaches a subscriber of the other, and resumes there by id", async () => {
    const onA = await signIn(a.url, "eve@example.com", PW);
    const onB = await signIn(b.url, "eve@example.com", PW);
    const sub = await openSse(`${b.url}/api/events`, { cookie: onB });
    await sub.waitFor((e) => e.event === "ready");
    const update = async (city: string) => {
      const res = await fetch(`${a.url}/api/v0/record/demo/employees/update`, {
        method: "POST",
        headers: { ...fromApp(a.url), cookie: onA, "content-type": "application/json" },
        body: JSON.stringify({ filter: { and: [{ key: "employee_id", operator: "equal", value: "E00040" }] }, values: [{ key: "city", value: city }] }),
      });
      expect(res.status).toBe(200);
    };
    await update("Across 1");
    const first = await sub.waitFor((e) => e.event === "change" && e.data.includes("Across 1"), 10_000);
    expect(dataOf(first)).toMatchObject({ table: "demo/employees", records: [{ key: "E00040", values: { city: "Across 1" } }], actor: { email: "eve@example.com" } });
    sub.close();
    await update("Across 2");
    await update("Across 3");
    const again = await openSse(`${b.url}/api/events`, { cookie: onB, "last-event-id": first.id as string });
    // The change goes out after its answer (the editor does not wait for the others to hear of
    // it), so "Across 3" may come in the backlog or just after "ready": in order either way.
    await again.waitFor((e) => e.event === "change" && e.data.includes("Across 3"), 10_000);
    const cities = again.events.filter((e) => e.event === "change").map((e) => dataOf<{ records: { values: { city: string } }[] }>(e).records[0].values.city);
    expect(cities).toEqual(["Across 2", "Across 3"]);
    again.close();
  });

  it("changes published at once through two proxies all reach a third, in id order", async () => {
    // Rows that commit out of id order (one proxy's insert slower to commit than the other's)
    // must not be skipped by a reader that has already delivered a higher id.
    const [one, two, reader] = await Promise.all([createPostgresBus(db.url), createPostgresBus(db.url), createPostgresBus(db.url)]);
    try {
      const got: ChangeEvent[] = [];
      reader.onChange((e) => got.push(e));
      const event = (n: number) => ({ at: new Date().toISOString(), kind: "update" as const, resource: "table:demo/burst" as const, table: "demo/burst", records: [{ key: n }], actor: { email: "eve@example.com", name: "Eve" }, origin: "baseboard" as const });
      const N = 300;
      await Promise.all(Array.from({ length: 2 * N }, (_, i) => (i % 2 ? one : two).publish(event(i))));
      const deadline = Date.now() + 10_000;
      while (got.filter((e) => e.table === "demo/burst").length < 2 * N && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const burst = got.filter((e) => e.table === "demo/burst");
      expect(burst.map((e) => e.records?.[0].key).sort((x, y) => Number(x) - Number(y))).toEqual(Array.from({ length: 2 * N }, (_, i) => i));
      const ids = burst.map((e) => e.id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    } finally {
      await Promise.all([one.close(), two.close(), reader.close()]);
    }
  });

  it("resuming past more events than may be replayed is a refetch (undefined), never a backlog cut short", async () => {
    const bus = await createPostgresBus(db.url, { maxReplay: 3 });
    try {
      const event = (n: number) => ({ at: new Date().toISOString(), kind: "update" as const, resource: "table:demo/replay" as const, table: "demo/replay", records: [{ key: n }], actor: { email: "eve@example.com", name: "Eve" }, origin: "baseboard" as const });
      await bus.publish(event(0));
      const got: ChangeEvent[] = [];
      bus.onChange((e) => got.push(e));
      await expect.poll(() => got.length, { timeout: 10_000 }).toBe(1);
      const from = got[0].id;
      for (let i = 1; i <= 3; i++) await bus.publish(event(i));
      expect((await bus.since(from))?.map((e) => e.records?.[0].key)).toEqual([1, 2, 3]);
      await bus.publish(event(4));
      expect(await bus.since(from)).toBeUndefined();
      expect((await bus.since(from + 1))?.map((e) => e.records?.[0].key)).toEqual([2, 3, 4]);
    } finally {
      await bus.close();
    }
  });

  it("an event holding a NUL or a lone surrogate half still reaches every reader (jsonb refused it: the event went to nobody)", async () => {
    const [writer, reader] = await Promise.all([createPostgresBus(db.url), createPostgresBus(db.url)]);
    try {
      const got: ChangeEvent[] = [];
      reader.onChange((e) => got.push(e));
      const odd = { at: new Date().toISOString(), kind: "update" as const, resource: "table:demo/odd" as const, table: "demo/odd", records: [{ key: "Zu\ud83drich\u0000" }], actor: { email: "eve@example.com", name: "Eve" }, origin: "baseboard" as const };
      await writer.publish(odd);
      const deadline = Date.now() + 10_000;
      while (!got.some((e) => e.table === "demo/odd") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(got.find((e) => e.table === "demo/odd")?.records).toEqual([{ key: "Zu\ufffdrich\u2400" }]);
    } finally {
      await Promise.all([writer.close(), reader.close()]);
    }
  });

  it("listens again after the database was gone for a while (not just one try a second later), and delivers what was missed", async () => {
    const name = new URL(db.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: inject("pgAdminUrl") });
    await admin.connect();
    const [writer, reader] = await Promise.all([createPostgresBus(db.url), createPostgresBus(db.url)]);
    try {
      const got: ChangeEvent[] = [];
      reader.onChange((e) => got.push(e));
      const event = (n: number) => ({ at: new Date().toISOString(), kind: "update" as const, resource: "table:demo/outage" as const, table: "demo/outage", records: [{ key: n }], actor: { email: "eve@example.com", name: "Eve" }, origin: "baseboard" as const });
      // The database refuses new connections, and the reader's LISTEN connection is cut: its
      // first tries to listen again (after 1 s, then 2 s) fail.
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query ILIKE 'LISTEN%'", [name]);
      await writer.publish(event(1)); // through the writer's pooled connection, made before
      await new Promise((r) => setTimeout(r, 3500));
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      // Back: the change made meanwhile arrives, and so does the next one.
      await expect.poll(() => got.filter((e) => e.table === "demo/outage").length, { timeout: 15_000 }).toBe(1);
      await writer.publish(event(2));
      await expect.poll(() => got.filter((e) => e.table === "demo/outage").map((e) => e.records?.[0].key), { timeout: 10_000 }).toEqual([1, 2]);
    } finally {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`).catch(() => {});
      await Promise.all([writer.close(), reader.close()]);
      await admin.end();
    }
  }, 40_000);
});
