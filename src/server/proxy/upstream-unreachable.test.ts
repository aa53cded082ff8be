/**
 * What an unreachable upstream's 502 tells the person to check: a hosted service's BASE_URL, or
 * for the local service (no BASE_URL in use) that Baseboard restarts it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createUpstream, UpstreamFailure } from "./forward";
import { LOCAL_UNREACHABLE_HINT } from "../launcher/start";

async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

describe("an upstream that cannot be reached", () => {
  it("says what to check: BASE_URL for a hosted service, nothing of it for the local one", async () => {
    const port = await closedPort();
    const failure = async (hint?: string) => {
      const up = createUpstream({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "k", timeoutMs: 5000, label: "The service", unreachableHint: hint });
      try {
        return await up.getJson("/v0/meta").then(() => undefined, (e: unknown) => e);
      } finally {
        await up.close();
      }
    };
    const hosted = await failure();
    expect(hosted).toBeInstanceOf(UpstreamFailure);
    expect((hosted as UpstreamFailure).message).toMatch(/^The service could not be reached \(ECONNREFUSED\)\. Check that it is running and that BASE_URL is right\.$/);
    const local = (await failure(LOCAL_UNREACHABLE_HINT)) as UpstreamFailure;
    expect(local.message).toContain(LOCAL_UNREACHABLE_HINT);
    expect(local.message).not.toContain("BASE_URL");
  });

  it("Baseboard's own child refusing the connection is restarting: 503 with Retry-After, not a 502 (review 30a #4)", async () => {
    // The child's exit is seen a moment after its port stops answering; until then the
    // supervisor still says "up", and a refused connection is the first sign.
    const port = await closedPort();
    const up = createUpstream({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "k", timeoutMs: 5000, label: "The local service", unreachableHint: LOCAL_UNREACHABLE_HINT, supervised: true });
    try {
      const e = (await up.getJson("/v0/meta").then(() => undefined, (x: unknown) => x)) as UpstreamFailure;
      expect(e).toBeInstanceOf(UpstreamFailure);
      expect(e.status).toBe(503);
      expect(e.toBody()).toMatchObject({ error: "unavailable", message: "The local service is restarting; try again in a moment." });
      expect(e.retryAfterS).toBe(2);
      expect(e.neverSent).toBe(true);
    } finally {
      await up.close();
    }
    // Through the proxy's forward: the header says when to try again.
    const server = http.createServer((req, res) => void up2.forward(req, res, "/v0/meta", { withKey: true, headers: {} }));
    const up2 = createUpstream({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "k", timeoutMs: 5000, label: "The local service", supervised: true });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("2");
    } finally {
      server.close();
      await up2.close();
    }
  });
});
