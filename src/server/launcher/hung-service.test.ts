/**
 * A service that hangs without exiting (SIGSTOP): the supervisor's liveness probe reports it
 * unresponsive within a few seconds (/api/health, and a quick 503 that says so instead of a
 * request waiting 30 s), it is "up" again by itself when it answers (SIGCONT), and when it stays
 * hung past BASEBOARD_SERVICE_HUNG_SECONDS it is killed and restarted, and answers again.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { fromApp, raw, startTestBaseboard, type TestBaseboard } from "../proxy/testing/test-baseboard";
import { alive } from "./testing/process-alive";

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
