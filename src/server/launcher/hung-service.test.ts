/**
 * A service that hangs without exiting (SIGSTOP): the supervisor's liveness probe reports it
 * unresponsive within a few seconds (/api/health, and a quick 503 that says so instead of a
 * request waiting 30 s), it is "up" again by itself when it answers (SIGCONT), and when it stays
 * hung past BASEBOARD_SERVICE_HUNG_SECONDS it is killed and restarted, and answers again. A
 * change it answers only after UPSTREAM_TIMEOUT_MS is told as "cannot be told yet" at the
 * timeout, and recorded and announced when it is answered.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { fromApp, raw, startTestBaseboard, type TestBaseboard } from "../proxy/testing/test-baseboard";
import { alive } from "./testing/process-alive";
import { dataOf, openSse } from "../team/testing/sse-client";

let board: TestBaseboard;
beforeAll(async () => {
  board = await startTestBaseboard({ BASEBOARD_SERVICE_HUNG_SECONDS: "6" });
});
afterAll(async () => {
  const pid = board?.supervisor?.pid();
  if (pid && alive(pid)) process.kill(pid, "SIGCONT");
  await board?.stop();
});

const health = async () => (await raw(board.url, "/api/health")).json() as { service: string };
async function until(what: () => Promise<boolean>, ms: number): Promise<number> {
  const start = Date.now();
  while (!(await what())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - start;
}
const query = () =>
  raw(board.url, "/api/v0/record/demo/employees/query", { method: "POST", headers: fromApp(board.url, { "content-type": "application/json" }), body: JSON.stringify({ limit: 1 }) });

it("reports a hung service within 5 s, answers 503 at once meanwhile, and is up again when it answers", async () => {
  const pid = board.supervisor?.pid() as number;
  process.kill(pid, "SIGSTOP");
  try {
    const took = await until(async () => (await health()).service === "unresponsive", 5000);
    expect(took).toBeLessThan(5000);
    const t = Date.now();
    const res = await query();
    expect(Date.now() - t).toBeLessThan(1000);
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({ error: "unavailable", message: expect.stringMatching(/not answering/) });
  } finally {
    process.kill(pid, "SIGCONT");
  }
  await until(async () => (await health()).service === "up", 5000);
  expect(board.supervisor?.pid()).toBe(pid);
  expect((await query()).status).toBe(200);
});

it("restarts a service that stays hung", async () => {
  const pid = board.supervisor?.pid() as number;
  process.kill(pid, "SIGSTOP");
  await until(async () => board.supervisor?.pid() !== pid, 20_000);
  await until(async () => (await health()).service === "up", 60_000);
  expect((await query()).status).toBe(200);
  expect(board.logs.join("\n")).toMatch(/did not answer for \d+ s: killing it to restart it/);
}, 90_000);

it("a change answered after UPSTREAM_TIMEOUT_MS: 504 at the timeout saying it cannot be told yet; recorded and announced when it is answered", async () => {
  const late = await startTestBaseboard({ UPSTREAM_TIMEOUT_MS: "1500" });
  const pid = late.supervisor?.pid() as number;
  try {
    const update = (city: string) =>
      raw(late.url, "/api/v0/record/demo/employees/update", {
        method: "POST",
        headers: fromApp(late.url, { "content-type": "application/json" }),
        body: JSON.stringify({ filter: { and: [{ key: "employee_id", operator: "equal", value: "E00050" }] }, values: [{ key: "city", value: city }] }),
      });
    expect((await update("Before The Wait")).status).toBe(200);
    const stream = await openSse(`${late.url}/api/events`, fromApp(late.url));
    await stream.waitFor((e) => e.event === "ready");
    // The service stops (as under a long import) once the change is on its way, for longer than the timeout.
    const answer = update("After The Wait");
    process.kill(pid, "SIGSTOP");
    let res;
    try {
      res = await answer;
    } finally {
      setTimeout(() => process.kill(pid, "SIGCONT"), 1500);
    }
    expect(res.status).toBe(504);
    expect(res.json()).toMatchObject({ error: "gateway_timeout", message: expect.stringMatching(/cannot be told yet: it may still be under way\. Look before trying it again \(when it ends/) });
    // Answered once it runs again: announced to the others, and recorded as applied, with what it overwrote.
    const event = await stream.waitFor((e) => e.event === "change" && e.data.includes("After The Wait"), 15_000);
    expect(dataOf(event)).toMatchObject({ kind: "update", table: "demo/employees", records: [{ key: "E00050", values: { city: "After The Wait" } }] });
    stream.close();
    const history = async () =>
      (await raw(late.url, "/api/audit?table=demo/employees&record=E00050", { headers: fromApp(late.url) })).json() as { items: { outcome: string; changes?: { before: object; after: object }[] }[] };
    await expect.poll(async () => (await history()).items[0], { timeout: 10_000 }).toMatchObject({ outcome: "applied", changes: [{ before: { city: "Before The Wait" }, after: { city: "After The Wait" } }] });
    expect(late.logs.join("\n")).toMatch(/after the client was told it timed out/);
  } finally {
    if (alive(pid)) process.kill(pid, "SIGCONT");
    await late.stop();
  }
}, 60_000);
