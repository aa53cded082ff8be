/**
 * The embedded service in its supervised child, end to end: killed with SIGKILL, it comes back
 * on its own with its data; meanwhile the proxy answers 503 "restarting" in the error shape with
 * Retry-After, /api/health says which part is down, and the proxy itself never stops serving.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { fromApp, raw, startTestBaseboard, type TestBaseboard } from "../proxy/testing/test-baseboard";
import { alive } from "./testing/process-alive";

let board: TestBaseboard;

beforeAll(async () => {
  board = await startTestBaseboard();
});
afterAll(async () => {
  await board?.stop();
});

const update = (body: unknown) =>
  raw(board.url, "/api/v0/record/demo/employees/update", { method: "POST", headers: fromApp(board.url, { "content-type": "application/json" }), body: JSON.stringify(body) });

it("restarts the service after a crash; the proxy answers 503 restarting meanwhile; nothing acknowledged is lost", async () => {
  const byId = { and: [{ key: "employee_id", operator: "equal", value: "E00001" }] };
  const query = () =>
    raw(board.url, "/api/v0/record/demo/employees/query", { method: "POST", headers: fromApp(board.url, { "content-type": "application/json" }), body: JSON.stringify({ filter: byId }) });
  const written = await update({ filter: byId, values: [{ key: "bonus", value: 4321 }], fixedValue: [] });
  expect(written.status).toBe(200);

  const pid = board.supervisor?.pid() as number;
  expect(alive(pid)).toBe(true);
  process.kill(pid, "SIGKILL");

  // Until it is back: every answer is either the 503 in the error shape or a real answer.
  let saw503 = false;
  let unsent = 0;
  const end = Date.now() + 60_000;
  for (;;) {
    const res = await query();
    if (res.status === 200 && saw503) break;
    if (res.status === 503) {
      if (!saw503) {
        // A change asked for meanwhile is not made, and the trail says so (with what it asked).
        // (One sent on a kept-alive connection to the dead child is reset: 502, "cannot be told"; sent again.)
        let meanwhile = await update({ filter: byId, values: [{ key: "bonus", value: 999 }] });
        for (let i = 0; i < 5 && meanwhile.status === 502; i++) {
          expect(meanwhile.json()).toMatchObject({ error: "bad_gateway", message: expect.stringContaining("whether the change was made cannot be told") });
          meanwhile = await update({ filter: byId, values: [{ key: "bonus", value: 999 }] });
        }
        if (meanwhile.status === 503) unsent++;
      }
      saw503 = true;
      // A read sent on a kept-alive connection as the child died finds it reset: said as stopped while answering.
      expect(res.json()).toEqual({ error: "unavailable", subCode: 12, message: expect.stringMatching(/^The local service (is|stopped while answering and is) restarting; try again in a moment\.$/) });
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
      const health = await raw(board.url, "/api/health");
      if (health.status === 503) expect(health.json()).toEqual({ ok: true, proxy: "up", service: "restarting", restarts: 0 });
      const config = await raw(board.url, "/api/config");
      if (config.status !== 200) expect(config.json()).toMatchObject({ error: "unavailable" });
    } else if (res.status !== 200) {
      // The kill lands between the supervisor's view and the socket: at most a 502, never a crash.
      expect(res.status).toBe(502);
    }
    if (Date.now() > end) throw new Error("the service did not come back within 60 s");
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(saw503).toBe(true);
  expect((await raw(board.url, "/api/health")).json()).toEqual({ ok: true, proxy: "up", service: "up", restarts: 1 });
  expect(board.supervisor?.pid()).not.toBe(pid);
  expect(board.logs.join("\n")).toMatch(/the local service \(pid \d+\) killed by SIGKILL; restarting it/);
  expect(board.logs.join("\n")).toMatch(/the local service is back \(pid \d+, restart 1\)/);
  const after = (await query()).json() as { items: Record<string, unknown>[] };
  expect(after.items[0]).toMatchObject({ employee_id: "E00001", bonus: 4321 });
  expect(unsent).toBe(1);
  const trail = (await raw(board.url, "/api/audit?kind=update&limit=1", { headers: fromApp(board.url) })).json() as { items: Record<string, unknown>[] };
  expect(trail.items[0]).toMatchObject({ action: "update", outcome: "failed", message: "The local service is restarting; try again in a moment.", values: [{ key: "bonus", value: 999 }] });
});

it("stops the service when Baseboard stops", async () => {
  const pid = board.supervisor?.pid() as number;
  expect(alive(pid)).toBe(true);
  await board.close(1000);
  expect(alive(pid)).toBe(false);
  expect(board.supervisor?.state()).toBe("stopped");
});
