/**
 * The upstream goes away under a proxy with a trail: a change whose trail must read what it
 * overwrites first (a Record delete, or an update on an upstream without before-images) is
 * refused in the words of any request to an unreachable upstream, and recorded as failed. Until
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
});
