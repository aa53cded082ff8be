import { describe, expect, it } from "vitest";
import { healthState, partOf, probeState, worst } from "./health.utils";

describe("health", () => {
  it.each([
    [{ status: 200, body: { ok: true } }, "up"],
    [{ status: 200, body: { service: "up", proxy: "up" } }, "up"],
    [{ status: 200, body: { service: "restarting" } }, "restarting"],
    [{ status: 503, body: { parts: { service: "restarting" } } }, "restarting"],
    [{ status: 503, body: undefined }, "restarting"],
    [{ status: 200, body: { parts: { service: "down" } } }, "down"],
    [{ status: 200, body: { ok: false } }, "down"],
    [{ status: 502, body: { error: "bad_gateway" } }, "down"],
    ["network", "down"],
    // The launcher's report (proxy/health.ts on the launcher branch), each state.
    [{ status: 200, body: { ok: true, proxy: "up", service: "up", restarts: 0 } }, "up"],
    [{ status: 200, body: { ok: true, proxy: "up", service: "hosted", restarts: 0 } }, "up"],
    [{ status: 503, body: { ok: true, proxy: "up", service: "starting", restarts: 0 } }, "restarting"],
    [{ status: 503, body: { ok: true, proxy: "up", service: "restarting", restarts: 1 } }, "restarting"],
    [{ status: 503, body: { ok: false, proxy: "up", service: "down", restarts: 10 } }, "down"],
    [{ status: 503, body: { ok: false, proxy: "up", service: "stopped", restarts: 0 } }, "down"],
  ] as const)("%j is %s", (answer, state) => {
    expect(healthState(answer)).toBe(state);
  });
  it("blames the proxy when /api/health gives no answer, the store when it says so, else the service", () => {
    expect(partOf("network")).toBe("proxy");
    expect(partOf({ status: 503, body: { ok: true, proxy: "up", service: "hosted", restarts: 0, store: "down" } })).toBe("store");
    expect(healthState({ status: 503, body: { ok: true, proxy: "up", service: "hosted", restarts: 0, store: "down" } })).toBe("down");
    expect(partOf({ status: 503, body: { ok: false, proxy: "up", service: "down", restarts: 10, store: "up" } })).toBe("service");
    expect(partOf({ status: 502, body: undefined })).toBe("service");
  });
  it("counts any upstream answer as up, a gateway error as down", () => {
    expect(probeState({ status: 404, body: {} })).toBe("up");
    expect(probeState({ status: 502, body: {} })).toBe("down");
    expect(probeState({ status: 504, body: {} })).toBe("down");
    expect(probeState("network")).toBe("down");
    expect(worst("up", "restarting", "up")).toBe("restarting");
    expect(worst("restarting", "down")).toBe("down");
  });
});
