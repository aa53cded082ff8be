/**
 * Two proxies sharing people through one PostgreSQL (BASEBOARD_DATABASE_URL): a person added by
 * the `people` operations is known to both, a session started on one is refused on the other
 * within 3 s once the person is disabled there, and grants changed on one hold on the other.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../service/engines/postgres/testing/test-database";
import { startTestBaseboard, type TestBaseboard } from "../proxy/testing/test-baseboard";
import { createPeopleAdmin } from "./people/people-admin";
import { openPostgresTeamStore } from "./store/postgres-store";
import type { TeamStore } from "./store/team-store";
import { signIn, waitForMode } from "./testing/team-stack";
import { checkSessionEnds } from "./testing/session-ends-contract";

const PW = "a perfectly long passphrase";
let db: TestDatabase;
let store: TeamStore;
let a: TestBaseboard;
let b: TestBaseboard;

beforeAll(async () => {
  db = await createTestDatabase(inject("pgAdminUrl"));
  store = await openPostgresTeamStore(db.url);
  const admin = createPeopleAdmin(store);
  expect((await admin.add({ email: "ada@example.com", role: "admin", password: PW })).ok).toBe(true);
  expect((await admin.add({ email: "vic@example.com", role: "editor", password: PW })).ok).toBe(true);
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

const me = (board: TestBaseboard, cookie: string) => fetch(`${board.url}/api/me`, { headers: { cookie } });
/** An admin disables vic through proxy A, as the People page does. */
const disableVicOnA = (adminCookie: string) =>
  fetch(`${a.url}/api/people/vic@example.com`, {
    method: "PATCH",
    headers: { cookie: adminCookie, origin: a.url, "x-baseboard-client": "1", "sec-fetch-site": "same-origin", "content-type": "application/json" },
    body: JSON.stringify({ disabled: true }),
  });

describe("two proxies on one PostgreSQL", () => {
  it("a disable made through one proxy ends the session on the other within 3 s", async () => {
    const adminCookie = await signIn(a.url, "ada@example.com", PW);
    const vicOnB = await signIn(b.url, "vic@example.com", PW);
    expect((await me(b, vicOnB)).status).toBe(200);
    // A session from one proxy is a session on the other (one store).
    expect((await me(a, vicOnB)).status).toBe(200);
    expect((await disableVicOnA(adminCookie)).status).toBe(200);
    const start = Date.now();
    while ((await me(b, vicOnB)).status !== 401) {
      expect(Date.now() - start).toBeLessThan(3000);
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it("a disable made through one proxy ends the person's open live stream on the other within 3 s (not at its 30 s recheck)", async () => {
    await createPeopleAdmin(store).update("vic@example.com", { disabled: false });
    const adminCookie = await signIn(a.url, "ada@example.com", PW);
    const vicOnB = await signIn(b.url, "vic@example.com", PW);
    const stream = await fetch(`${b.url}/api/events`, { headers: { cookie: vicOnB, accept: "text/event-stream" } });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes("event: ready")) text += new TextDecoder().decode((await reader.read()).value);
    expect((await disableVicOnA(adminCookie)).status).toBe(200);
    const start = Date.now();
    const ended = async () => {
      for (;;) {
        const r = await reader.read().catch(() => ({ done: true }));
        if (r.done) return Date.now() - start;
      }
    };
    const took = await Promise.race([ended(), new Promise<number>((r) => setTimeout(() => r(Infinity), 10_000))]);
    expect(took).toBeLessThan(3000);
    await reader.cancel().catch(() => {});
  });

  it("a grant set on one proxy is enforced by the other", async () => {
    await createPeopleAdmin(store).update("vic@example.com", { disabled: false });
    await createPeopleAdmin(store).grant("vic@example.com", "table:demo/employees", "none");
    await new Promise((r) => setTimeout(r, 1200));
    const vic = await signIn(b.url, "vic@example.com", PW);
    const q = await fetch(`${b.url}/api/v0/record/demo/employees/query`, {
      method: "POST",
      headers: { cookie: vic, "content-type": "application/json" },
      body: JSON.stringify({ limit: 1 }),
    });
    expect(q.status).toBe(403);
    expect((await me(a, vic)).status).toBe(200);
  });
  it("lists until when a person's invite link works, as the embedded store does", async () => {
    const until = Date.now() + 3_600_000;
    expect(await store.addPerson({ email: "nia@example.com", name: "Nia", role: "viewer", passwordHash: null, sso: false }, Date.now())).toBe(true);
    expect((await store.getPerson("nia@example.com"))?.inviteExpiresAt).toBeNull();
    await store.createInvite("f".repeat(64), "nia@example.com", until);
    expect((await store.getPerson("nia@example.com"))?.inviteExpiresAt).toBe(until);
    expect((await store.listPeople()).map((p) => [p.email, p.inviteExpiresAt])).toEqual([["ada@example.com", null], ["nia@example.com", until], ["vic@example.com", null]]);
    expect(await store.takeInvite("f".repeat(64), Date.now())).toBe("nia@example.com");
    expect((await store.getPerson("nia@example.com"))?.inviteExpiresAt).toBeNull();
  });
  it("a session ended on one proxy is refused on the other saying why, and why is kept as the embedded store keeps it", async () => {
    const adminCookie = await signIn(a.url, "ada@example.com", PW);
    await createPeopleAdmin(store).update("vic@example.com", { disabled: false });
    const vicOnB = await signIn(b.url, "vic@example.com", PW);
    expect((await disableVicOnA(adminCookie)).status).toBe(200);
    const start = Date.now();
    let refused = await me(b, vicOnB);
    while (refused.status !== 401) {
      expect(Date.now() - start).toBeLessThan(3000);
      await new Promise((r) => setTimeout(r, 50));
      refused = await me(b, vicOnB);
    }
    expect((await refused.json()).message).toMatch(/^Your session ended: an admin disabled your account at .* UTC\. Ask an admin to enable it again\./);
    // Last in this file: it prunes every session.
    expect(await store.addPerson({ email: "ses@example.com", name: "Ses", role: "editor", passwordHash: null, sso: false }, Date.now())).toBe(true);
    await checkSessionEnds(store, "ses@example.com");
  });
});
