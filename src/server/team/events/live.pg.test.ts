/**
 * Live events across two proxies on one PostgreSQL (BASEBOARD_DATABASE_URL): an edit made
 * through one reaches a subscriber of the other (LISTEN/NOTIFY, payload by reference), with the
 * same event id on both, and a subscriber of the second resumes from that id after a break.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../service/engines/postgres/testing/test-database";
import { fromApp, startTestBaseboard, type TestBaseboard } from "../../proxy/testing/test-baseboard";
import { createPeopleAdmin } from "../people/people-admin";
import { openPostgresTeamStore } from "../store/postgres-store";
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
    await again.waitFor((e) => e.event === "ready");
    const cities = again.events.filter((e) => e.event === "change").map((e) => dataOf<{ records: { values: { city: string } }[] }>(e).records[0].values.city);
    expect(cities).toEqual(["Across 2", "Across 3"]);
    again.close();
  });
});
