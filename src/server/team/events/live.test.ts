/**
 * The live stream through a real proxy and service: 401 without a session, each change reaches
 * the people who may read its table (and not the others) with who, what and the new values;
 * resume with Last-Event-ID; a reset when the id is unknown; heartbeats; the subscriber limit;
 * a reader that stops reading is dropped and resumes; presence; and the service's own event
 * extension, so a change made directly at the service (outside Baseboard) is live too, while a
 * change through the proxy is published once.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromApp } from "../../proxy/testing/test-baseboard";
import { madeThenCut, signIn, startTeamStack, type TeamStack, waitForMode } from "../testing/team-stack";
import { dataOf, openSse, type SseClient } from "../testing/sse-client";

const PW = "a perfectly long passphrase";
const MAX = 6;
let stack: TeamStack;
let eve: string;
let nan: string;
const open: SseClient[] = [];

beforeAll(async () => {
  stack = await startTeamStack({ BASEBOARD_EVENTS_HEARTBEAT_MS: "300", BASEBOARD_EVENTS_MAX_SUBSCRIBERS: String(MAX), BASEBOARD_EVENTS_MAX_BUFFER_BYTES: "65536" });
  await stack.admin.add({ email: "eve@example.com", role: "editor", password: PW, name: "Eve Editor" });
  await stack.admin.add({ email: "nan@example.com", role: "viewer", password: PW });
  await stack.admin.grant("nan@example.com", "table:demo/employees", "none");
  await waitForMode(stack.proxy.url, "people");
  eve = await signIn(stack.proxy.url, "eve@example.com", PW);
  nan = await signIn(stack.proxy.url, "nan@example.com", PW);
}, 120_000);
afterAll(async () => {
  for (const c of open) c.close();
  await stack?.stop();
});

const base = () => stack.proxy.url;
async function stream(cookie: string, headers: Record<string, string> = {}) {
  const c = await openSse(`${base()}/api/events`, { cookie, ...headers });
  open.push(c);
  if (c.status === 200) await c.waitFor((e) => e.event === "ready");
  return c;
}
async function update(cookie: string, table: string, filter: unknown, values: Record<string, unknown>) {
  const res = await fetch(`${base()}/api/v0/record/demo/${table}/update`, {
    method: "POST",
    headers: { ...fromApp(base()), cookie, "content-type": "application/json", "x-baseboard-tab": "tab-eve" },
    body: JSON.stringify({ filter, values: Object.entries(values).map(([key, value]) => ({ key, value })) }),
  });
  expect(res.status, await res.text()).toBe(200);
}
const byId = (key: string, value: string) => ({ and: [{ key, operator: "equal", value }] });

describe("GET /api/events", () => {
  it("a resumable upload is announced once, like an upload, when it completes", async () => {
    const eveStream = await stream(eve);
    const call = (method: string, path: string, body?: string, type = "application/json") =>
      fetch(`${base()}/api/v0/storage/uploads/team-files${path}`, { method, headers: { ...fromApp(base()), cookie: eve, "content-type": type }, body });
    const { id } = await (await call("POST", "", JSON.stringify({ key: "live/parts.bin", size: 3 }))).json();
    expect((await call("PUT", `/${id}/parts/1`, "abc", "application/octet-stream")).status).toBe(200);
    expect(eveStream.events.some((m) => m.data.includes("live/parts.bin"))).toBe(false);
    expect((await call("POST", `/${id}/complete`, "{}")).status).toBe(200);
    const e = dataOf(await eveStream.waitFor((m) => m.event === "change" && m.data.includes("live/parts.bin")));
    expect(e).toMatchObject({ kind: "upload", bucket: "team-files", keys: ["live/parts.bin"], actor: { email: "eve@example.com" } });
    await new Promise((r) => setTimeout(r, 500));
    expect(eveStream.events.filter((m) => m.event === "change" && m.data.includes("live/parts.bin"))).toHaveLength(1);
    eveStream.close();
  });

  it("a storage job is announced once, when it has ended, with its action: the files have moved by then", async () => {
    for (const n of ["a", "b", "c"]) {
      const form = new FormData();
      form.append("key", `live/job-src/${n}.txt`);
      form.append("file", new Blob([n]), `${n}.txt`);
      expect((await fetch(`${base()}/api/v0/storage/object/team-files`, { method: "POST", headers: { ...fromApp(base()), cookie: eve }, body: form })).status).toBe(200);
    }
    const s = await stream(nan);
    const job = async (body: unknown) => {
      const res = await fetch(`${base()}/api/v0/storage/jobs/team-files`, { method: "POST", headers: { ...fromApp(base()), cookie: eve, "content-type": "application/json", "x-baseboard-tab": "tab-eve" }, body: JSON.stringify(body) });
      expect(res.status, await res.text()).toBeLessThan(300);
    };
    const listed = async (prefix: string) =>
      ((await (await fetch(`${base()}/api/v0/storage/list/team-files?prefix=${encodeURIComponent(prefix)}`, { headers: { cookie: eve } })).json()) as { items?: { key: string }[] }).items?.length ?? 0;
    await job({ action: "copy", from: "live/job-src/", to: "live/job-copy/" });
    const copied = dataOf(await s.waitFor((m) => m.event === "change" && m.data.includes("job-src") && m.data.includes('"copy"')));
    // Every tab hears of it, with the tab that started it: that one reads its listing again
    // without a notice of its own action (apply-change.ts; review 46b #8).
    expect(copied).toMatchObject({ kind: "storage-job", job: "copy", bucket: "team-files", actor: { email: "eve@example.com" }, tab: "tab-eve" });
    expect(await listed("live/job-copy/")).toBe(3);
    await job({ action: "move", from: "live/job-copy/", to: "live/job-moved/" });
    const moved = dataOf(await s.waitFor((m) => m.event === "change" && m.data.includes('"move"')));
    expect(moved).toMatchObject({ kind: "storage-job", job: "move" });
    expect(await listed("live/job-copy/")).toBe(0);
    expect(await listed("live/job-moved/")).toBe(3);
    await new Promise((r) => setTimeout(r, 500));
    expect(s.events.filter((m) => m.event === "change" && m.data.includes('"storage-job"'))).toHaveLength(2);
    s.close();
  });

  it("needs a session: 401 in the one error shape", async () => {
    const res = await fetch(`${base()}/api/events`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: "auth_error" });
  });

  it("a change reaches those who may read the table, with who, the Records and new values; not the others", async () => {
    const eveStream = await stream(eve);
    const nanStream = await stream(nan);
    await update(eve, "employees", byId("employee_id", "E00021"), { city: "Live City" });
    await update(eve, "departments", byId("department", "Sales"), { location: "Live Location" });
    const e = dataOf(await eveStream.waitFor((m) => m.event === "change" && m.data.includes("Live City")));
    expect(e).toMatchObject({
      kind: "update",
      table: "demo/employees",
      fields: ["city"],
      records: [{ key: "E00021", values: { city: "Live City" } }],
      actor: { email: "eve@example.com", name: "Eve Editor" },
      origin: "baseboard",
      tab: "tab-eve",
    });
    expect(Number.isNaN(Date.parse(e.at as string))).toBe(false);
    // nan may not read employees: she gets the departments change and never the employees one.
    await nanStream.waitFor((m) => m.event === "change" && m.data.includes("Live Location"));
    expect(nanStream.events.some((m) => m.data.includes("Live City"))).toBe(false);
    eveStream.close();
    nanStream.close();
  });

  it("a change whose answer never came back (made, the connection then cut) has the others read its table again", async () => {
    const eveStream = await stream(eve);
    // The service makes the update, and the proxy's connection is cut before its answer.
    stack.hold = madeThenCut(stack.svc.serviceUrl as string, "/employees/update");
    try {
      const res = await fetch(`${base()}/api/v0/record/demo/employees/update`, {
        method: "POST",
        headers: { ...fromApp(base()), cookie: eve, "content-type": "application/json" },
        body: JSON.stringify({ filter: byId("employee_id", "E00023"), values: [{ key: "city", value: "Lost Answer Live" }] }),
      });
      expect(res.status).toBe(502);
    } finally {
      stack.hold = undefined;
    }
    const e = dataOf(await eveStream.waitFor((m) => m.event === "change" && m.data.includes('"truncated":true') && m.data.includes("demo/employees")));
    expect(e).toMatchObject({ kind: "update", table: "demo/employees", truncated: true, actor: { email: "eve@example.com" } });
    expect(e.records).toBeUndefined();
    eveStream.close();
  });

  it("a restored file version announces the file as replaced, as an upload does, once", async () => {
    const put = async (text: string) => {
      const form = new FormData();
      form.append("key", "live/restored.txt");
      form.append("file", new Blob([text]), "f.txt");
      const res = await fetch(`${base()}/api/v0/storage/object/team-files`, { method: "POST", headers: { ...fromApp(base()), cookie: eve }, body: form });
      expect(res.status).toBe(200);
      return ((await res.json()) as { key: string }).key;
    };
    const first = await put("one");
    await put("two");
    const s = await stream(nan);
    const res = await fetch(`${base()}/api/v0/storage/restore/team-files/${first}`, { method: "POST", headers: { ...fromApp(base()), cookie: eve, "x-baseboard-tab": "tab-eve" } });
    expect(res.status, await res.text()).toBe(200);
    const e = dataOf(await s.waitFor((m) => m.event === "change" && m.data.includes("live/restored.txt")));
    expect(e).toMatchObject({ kind: "upload", bucket: "team-files", keys: ["live/restored.txt"], actor: { email: "eve@example.com" }, origin: "baseboard", tab: "tab-eve" });
    await new Promise((r) => setTimeout(r, 500));
    expect(s.events.filter((m) => m.event === "change" && m.data.includes("live/restored.txt"))).toHaveLength(1);
    s.close();
  });

  it("resumes with Last-Event-ID without loss; an unknown id gets a reset", async () => {
    const first = await stream(eve);
    await update(eve, "employees", byId("employee_id", "E00022"), { city: "Resume 1" });
    const seen = await first.waitFor((m) => m.data.includes("Resume 1"));
    first.close();
    await update(eve, "employees", byId("employee_id", "E00022"), { city: "Resume 2" });
    await update(eve, "employees", byId("employee_id", "E00023"), { city: "Resume 3" });
    const again = await stream(eve, { "last-event-id": seen.id as string });
    const changes = again.events.filter((m) => m.event === "change").map((m) => dataOf<{ records: { values: { city: string } }[] }>(m).records[0].values.city);
    expect(changes).toEqual(["Resume 2", "Resume 3"]);
    again.close();
    const stale = await stream(eve, { "last-event-id": "12" });
    expect(stale.events.some((m) => m.event === "reset")).toBe(true);
    stale.close();
    // An id this proxy never gives is as unknown (it resumed as if nothing was missed).
    for (const id of ["garbage", "-5", "1e20", "99999999999999999999"]) {
      const odd = await stream(eve, { "last-event-id": id });
      expect(odd.events.some((m) => m.event === "reset"), id).toBe(true);
      odd.close();
    }
  });

  it("a stream's first frame carries where it resumes from: dropped before any change reached it, it reconnects without loss (review 51a #1)", async () => {
    const first = await stream(eve);
    const ready = first.events.find((m) => m.event === "ready")!;
    // The id the browser keeps and sends back as Last-Event-ID (the app gives it in the address
    // when it makes a new EventSource itself).
    expect(ready.id).toMatch(/^\d+$/);
    expect(first.events.some((m) => m.event === "change")).toBe(false);
    first.close();
    await update(eve, "employees", byId("employee_id", "E00024"), { city: "Between 1" });
    const cities = (c: SseClient) => c.events.filter((m) => m.event === "change").map((m) => dataOf<{ records: { values: { city: string } }[] }>(m).records[0].values.city);
    const again = await stream(eve, { "last-event-id": ready.id as string });
    expect(cities(again)).toEqual(["Between 1"]);
    expect(again.events.some((m) => m.event === "reset")).toBe(false);
    again.close();
    const byAddress = await openSse(`${base()}/api/events?lastEventId=${ready.id}`, { cookie: eve });
    open.push(byAddress);
    await byAddress.waitFor((e) => e.event === "ready");
    expect(cities(byAddress)).toEqual(["Between 1"]);
    byAddress.close();
  });

  it("more missed than a stream may hold unread is a reset carrying the newest id, not a stream dropped before its first byte", async () => {
    const first = await stream(eve);
    await update(eve, "employees", byId("employee_id", "E00024"), { city: "Away 0" });
    const seen = await first.waitFor((m) => m.data.includes("Away 0"));
    first.close();
    // About 2 KB each: 40 of them pass the 64 KB this stack lets a stream hold unread.
    const long = "y".repeat(2000);
    for (let i = 1; i <= 40; i++) await update(eve, "employees", byId("employee_id", "E00024"), { city: `${long}${i}` });
    const again = await stream(eve, { "last-event-id": seen.id as string });
    expect(again.status).toBe(200);
    const reset = again.events.find((m) => m.event === "reset");
    expect(reset, again.events.map((m) => m.event).join()).toBeDefined();
    expect(again.events.filter((m) => m.event === "change")).toEqual([]);
    // The stream goes on from there: a change made now arrives live.
    await update(eve, "employees", byId("employee_id", "E00024"), { city: "Back again" });
    await again.waitFor((m) => m.event === "change" && m.data.includes("Back again"));
    again.close();
    // The reset's id is where a reconnect resumes: no second reset, no replay of the 40.
    expect(Number(reset!.id)).toBeGreaterThan(Number(seen.id));
    const later = await stream(eve, { "last-event-id": reset!.id as string });
    expect(later.events.some((m) => m.event === "reset")).toBe(false);
    expect(later.events.filter((m) => m.event === "change").map((m) => dataOf<{ records: { values: { city: string } }[] }>(m).records[0].values.city)).toEqual(["Back again"]);
    later.close();
  });

  it("sends a heartbeat comment", async () => {
    const s = await stream(eve);
    await new Promise((r) => setTimeout(r, 800));
    expect(s.comments.filter((c) => c.includes("heartbeat")).length).toBeGreaterThan(0);
    s.close();
  });

  it(`serves at most BASEBOARD_EVENTS_MAX_SUBSCRIBERS (${MAX}) streams: 503 beyond, saying so`, async () => {
    for (const c of open) c.close();
    await new Promise((r) => setTimeout(r, 200));
    const held: SseClient[] = [];
    for (let i = 0; i < MAX; i++) held.push(await stream(eve));
    const over = await openSse(`${base()}/api/events`, { cookie: eve });
    expect(over.status).toBe(503);
    for (const c of held) c.close();
    await new Promise((r) => setTimeout(r, 200));
    const after = await stream(eve);
    expect(after.status).toBe(200);
    after.close();
  });

  it("drops a subscriber that stops reading instead of buffering without end; it resumes later", async () => {
    const u = new URL(base());
    const sock = net.connect(Number(u.port), u.hostname);
    await new Promise((r) => sock.once("connect", r));
    sock.write(`GET /api/events HTTP/1.1\r\nHost: ${u.host}\r\nCookie: ${eve}\r\nAccept: text/event-stream\r\n\r\n`);
    sock.pause();
    let closed = false;
    sock.on("close", () => (closed = true));
    // Big events: every employee's bio-sized city, changed again and again (about 1.5 MB each).
    const watcher = await stream(eve);
    const long = "x".repeat(1400);
    for (let i = 0; i < 12; i++) await update(eve, "employees", { and: [] }, { city: `${long}${i}` });
    await watcher.waitFor((m) => m.data.includes(`${long}11`), 20_000);
    // Read what was buffered: the proxy ended the stream long before all 12 × 1.5 MB arrived.
    let got = 0;
    sock.on("data", (b: Buffer) => (got += b.length));
    sock.resume();
    const until = Date.now() + 10_000;
    while (!closed && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(true);
    expect(got).toBeLessThan(12 * 1_000_000);
    watcher.close();
    // The same person comes back and is served again.
    const back = await stream(eve);
    expect(back.status).toBe(200);
    back.close();
  }, 60_000);
});

describe("presence", () => {
  it("who has a table open reaches readers of that table; bad bodies are refused", async () => {
    const s = await stream(eve);
    const post = (cookie: string, body: unknown) =>
      fetch(`${base()}/api/presence`, { method: "POST", headers: { ...fromApp(base()), cookie, "content-type": "application/json" }, body: JSON.stringify(body) });
    expect((await post(eve, { tab: "t1", view: "table:demo/departments", record: "Sales" })).status).toBe(204);
    const p = dataOf(await s.waitFor((m) => m.event === "presence" && m.data.includes('"t1"')));
    expect(p).toMatchObject({ email: "eve@example.com", name: "Eve Editor", view: "table:demo/departments", record: "Sales" });
    expect((await post(eve, { tab: "bad tab!", view: null })).status).toBe(400);
    expect((await post(nan, { tab: "t2", view: "table:demo/employees" })).status).toBe(403);
    // A newcomer gets who is here now.
    const late = await stream(eve);
    expect(late.events.some((m) => m.event === "presence" && m.data.includes('"t1"'))).toBe(true);
    s.close();
    late.close();
  });

  it("a tab leaving, or moving somewhere they may not read, reaches only those who may read where it was", async () => {
    const post = (body: unknown) =>
      fetch(`${base()}/api/presence`, { method: "POST", headers: { ...fromApp(base()), cookie: eve, "content-type": "application/json" }, body: JSON.stringify(body) });
    const watcher = await stream(nan);
    // Nan may not read employees: Eve there, and leaving it, are nothing to her.
    expect((await post({ tab: "hidden-1", view: "table:demo/employees", record: "E00007" })).status).toBe(204);
    expect((await post({ tab: "hidden-1", view: null })).status).toBe(204);
    // Departments she may read: she sees Eve come, then go to employees as a leave (not where to).
    expect((await post({ tab: "seen-1", view: "table:demo/departments" })).status).toBe(204);
    await watcher.waitFor((m) => m.event === "presence" && m.data.includes('"seen-1"'));
    expect((await post({ tab: "seen-1", view: "table:demo/employees", record: "E00008" })).status).toBe(204);
    const left = await watcher.waitFor((m) => m.event === "presence" && m.data.includes('"seen-1"') && m.data.includes('"view":null'));
    expect(dataOf(left)).toMatchObject({ email: "eve@example.com", tab: "seen-1", view: null });
    expect(left.data).not.toContain("E00008");
    expect(watcher.events.filter((m) => m.data.includes("hidden-1") || m.data.includes("employees"))).toEqual([]);
    watcher.close();
    await post({ tab: "seen-1", view: null });
  });

  it("one person shows presence in at most 50 tabs; a tab already shown may still move", async () => {
    const post = (tab: string, view: string | null) =>
      fetch(`${base()}/api/presence`, { method: "POST", headers: { ...fromApp(base()), cookie: eve, "content-type": "application/json" }, body: JSON.stringify({ tab, view }) });
    const answers = [];
    for (let i = 0; i < 55; i++) answers.push((await post(`flood-${i}`, "table:demo/departments")).status);
    // t1 of the test before may still be shown: 49 or 50 new tabs fit, the rest are refused.
    expect(answers.filter((s) => s === 204).length).toBeGreaterThanOrEqual(49);
    expect(answers.slice(50)).toEqual([503, 503, 503, 503, 503]);
    const refused = await post("flood-99", "table:demo/departments");
    expect(await refused.json()).toMatchObject({ error: "unavailable", message: expect.stringMatching(/50 tabs.*close some tabs/) });
    expect((await post("flood-3", "table:demo/employees")).status).toBe(204);
    // Leaving frees a place.
    expect((await post("flood-4", null)).status).toBe(204);
    expect((await post("flood-99", "table:demo/departments")).status).toBe(204);
    const late = await stream(eve);
    expect(late.events.filter((m) => m.event === "presence" && m.data.includes('"eve@example.com"')).length).toBeLessThanOrEqual(50);
    late.close();
    for (let i = 0; i < 100; i++) await post(`flood-${i}`, null);
  });
});

describe("changes made outside Baseboard (the service's event extension)", () => {
  it("advertises events in /v0/meta and streams its own changes", async () => {
    const meta = await fetch(`${stack.svc.serviceUrl}/v0/meta`, { headers: { "x-api-key": stack.apiKey } });
    expect(((await meta.json()) as { capabilities: { events?: boolean } }).capabilities.events).toBe(true);
  });

  it("a change made directly at the service reaches the proxy's subscribers; one through the proxy comes once", async () => {
    const s = await stream(eve);
    const res = await fetch(`${stack.svc.serviceUrl}/v0/record/demo/employees/update`, {
      method: "POST",
      headers: { "x-api-key": stack.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ filter: byId("employee_id", "E00030"), values: [{ key: "city", value: "Outside City" }] }),
    });
    expect(res.status).toBe(200);
    const e = dataOf(await s.waitFor((m) => m.event === "change" && m.data.includes('"outside"'), 10_000));
    expect(e).toMatchObject({ kind: "update", table: "demo/employees", origin: "outside", fields: ["city"], truncated: true, actor: { email: "outside" } });
    await update(eve, "employees", byId("employee_id", "E00031"), { city: "Inside City" });
    await s.waitFor((m) => m.data.includes("Inside City"));
    await new Promise((r) => setTimeout(r, 500));
    const changes = s.events.filter((m) => m.event === "change");
    expect(changes.filter((m) => m.data.includes("Inside City"))).toHaveLength(1);
    // The service's echo of the proxy's own change is not published as an outside change.
    expect(changes.filter((m) => m.data.includes('"outside"'))).toHaveLength(1);
    s.close();
  });
});
