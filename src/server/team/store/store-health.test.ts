import { describe, expect, it } from "vitest";
import { createStoreHealth } from "./store-health";

describe("createStoreHealth", () => {
  it("is up when the ping resolves, down when it rejects or hangs past the timeout", async () => {
    expect(await createStoreHealth(async () => {})()).toBe("up");
    expect(await createStoreHealth(() => Promise.reject(new Error("ECONNREFUSED")))()).toBe("down");
    expect(await createStoreHealth(() => new Promise(() => {}), { timeoutMs: 30 })()).toBe("down");
  });

  it("asks the store once per ttl however many callers, and again after it", async () => {
    let t = 0;
    let pings = 0;
    let up = true;
    const health = createStoreHealth(async () => {
      pings++;
      if (!up) throw new Error("down");
    }, { ttlMs: 1000, now: () => t });
    expect(await Promise.all([health(), health(), health()])).toEqual(["up", "up", "up"]);
    expect(pings).toBe(1);
    up = false;
    t = 999;
    expect(await health()).toBe("up");
    t = 1000;
    expect(await health()).toBe("down");
    expect(pings).toBe(2);
  });
});
