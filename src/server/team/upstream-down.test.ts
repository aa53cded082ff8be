/**
 * The upstream goes away under a proxy with a trail: a change whose trail must read what it
 * overwrites first (on an upstream without before-images: audit.test.ts) is refused in the words
 * of any request to an unreachable upstream, and recorded as failed. Until
 * stop 40 it was blamed on the activity log ("its database cannot be reached… check the storage
 * behind DATA_DIR"), sending the admin to the wrong system.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { fromApp } from "../proxy/testing/test-baseboard";
import { signIn, startTeamStack, type TeamStack, waitForMode } from "./testing/team-stack";

const PW = "a perfectly long passphrase";
let stack: TeamStack;

beforeAll(async () => {
  stack = await startTeamStack();
  expect((await stack.admin.add({ email: "ada@example.com", role: "admin", password: PW })).ok).toBe(true);
  await waitForMode(stack.proxy.url, "people");
}, 60_000);
afterAll(() => stack?.stop());

const audited = async (base: string, cookie: string, kind: string) =>
  (await (await fetch(`${base}/api/audit?kind=${kind}&limit=1`, { headers: { ...fromApp(base), cookie } })).json()).items[0];

it("a change cut off at the upstream (no answer) is recorded as unknown with the proxy's words, not left pending", async () => {
  const base = stack.proxy.url;
  const ada = await signIn(base, "ada@example.com", PW);
  stack.hold = (req) => (req.url?.endsWith("/employees/update") ? Promise.resolve("reset" as const) : undefined);
  try {
    const res = await fetch(`${base}/api/v0/record/demo/employees/update`, {
      method: "POST",
      headers: { ...fromApp(base), cookie: ada, "content-type": "application/json" },
      body: JSON.stringify({ filter: { and: [{ key: "employee_id", operator: "equal", value: "E00009" }] }, values: [{ key: "city", value: "Cut" }] }),
    });
    const body = await res.json();
    expect(res.status).toBe(502);
    // It may have been applied (the connection went after it was sent): unknown, with why.
    expect(await audited(base, ada, "update")).toMatchObject({ outcome: "unknown", message: body.message });
  } finally {
    stack.hold = undefined;
  }
});

it("/api/config while the service answers 503: a 503 that says when to try again (review 46a #4)", async () => {
  const base = stack.proxy.url;
  const ada = await signIn(base, "ada@example.com", PW);
  stack.hold = (req) => (req.url?.startsWith("/v0/meta") ? Promise.resolve({ status: 503, body: '{"error":"unavailable","subCode":12,"message":"The database cannot be reached."}' }) : undefined);
  try {
    const res = await fetch(`${base}/api/config`, { headers: { ...fromApp(base), cookie: ada } });
    expect(res.status, await res.clone().text()).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ error: "unavailable", message: "The database cannot be reached." });
  } finally {
    stack.hold = undefined;
  }
});

it("a delete while the upstream is down says the upstream could not be reached, not the activity log", async () => {
  const base = stack.proxy.url;
  const ada = await signIn(base, "ada@example.com", PW);
  const del = (expectedCount: number) =>
    fetch(`${base}/api/v0/record/demo/employees/delete`, {
      method: "POST",
      headers: { ...fromApp(base), cookie: ada, "content-type": "application/json" },
      body: JSON.stringify({ filter: { and: [{ key: "employee_id", operator: "equal", value: "E00007" }] }, expectedCount }),
    });
  // Once while it is up (the proxy learns the table's key), then with the upstream gone.
  expect((await del(5)).status).toBe(409);
  await stack.relay.close();
  const res = await del(1);
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(502);
  expect(body.message).toMatch(/could not be reached \(ECONNREFUSED\)/);
  expect(body.message).not.toMatch(/activity log/);
  const entry = (await (await fetch(`${base}/api/audit?kind=delete-records&limit=1`, { headers: { ...fromApp(base), cookie: ada } })).json()).items[0];
  expect(entry).toMatchObject({ outcome: "failed", message: body.message });
  // An upload that could not reach it: failed (nothing was sent), with the key it asked for.
  const form = new FormData();
  form.append("key", "down/never.txt");
  form.append("file", new Blob(["x"], { type: "text/plain" }), "never.txt");
  const up = await fetch(`${base}/api/v0/storage/object/public-assets`, { method: "POST", headers: { ...fromApp(base), cookie: ada }, body: form });
  const upBody = await up.json();
  expect(up.status).toBe(502);
  expect(await audited(base, ada, "upload")).toMatchObject({ outcome: "failed", message: upBody.message, file: { key: "down/never.txt" } });
});

