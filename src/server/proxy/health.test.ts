import { expect, it } from "vitest";
import { healthReport, HOSTED, type ServiceState, serviceUnavailable } from "./health";

const status = (state: ServiceState, restarts = 0) => ({ state: () => state, restarts: () => restarts });

it.each([
  ["up", 200, true],
  ["hosted", 200, true],
  ["starting", 503, true],
  ["restarting", 503, true],
  ["down", 503, false],
  ["stopped", 503, false],
] as const)("service %s → %i, ok %s", (state, code, ok) => {
  expect(healthReport(status(state, 2))).toEqual({ status: code, body: { ok, proxy: "up", service: state, restarts: 2 } });
});

it("reports Baseboard's own PostgreSQL store when there is one: down is a 503", () => {
  expect(healthReport(HOSTED, "down")).toEqual({ status: 503, body: { ok: true, proxy: "up", service: "hosted", restarts: 0, store: "down" } });
  expect(healthReport(status("up"), "up")).toEqual({ status: 200, body: { ok: true, proxy: "up", service: "up", restarts: 0, store: "up" } });
});

it("lets requests through only while the service is up (or hosted)", () => {
  expect(serviceUnavailable(status("up"))).toBeUndefined();
  expect(serviceUnavailable(HOSTED)).toBeUndefined();
  expect(serviceUnavailable(status("restarting"))).toEqual({
    body: { error: "unavailable", subCode: 12, message: "The local service is restarting; try again in a moment." },
    headers: { "retry-after": "2" },
  });
  const down = serviceUnavailable(status("down"));
  expect(down?.body.error).toBe("unavailable");
  expect(down?.body.message).toMatch(/down/);
  expect(down?.headers).toEqual({});
});
