/**
 * What an unreachable upstream's 502 tells the person to check: a hosted service's BASE_URL, or
 * for the local service (no BASE_URL in use) that Baseboard restarts it.
 */
import http from "node:http";
import net, { type AddressInfo } from "node:net";
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

  it("Baseboard's own child dropping a request (it died on a kept-alive connection): a read is 503, try again; a change 502, saying it cannot be told (review 31a #5)", async () => {
    // A service that takes the request and dies: the connection is reset, with no answer.
    const dying = net.createServer((socket) => socket.once("data", () => socket.resetAndDestroy()));
    await new Promise<void>((r) => dying.listen(0, "127.0.0.1", r));
    const target = `http://127.0.0.1:${(dying.address() as AddressInfo).port}`;
    const answers: { status: number; retry: string | null; body: { error: string; message: string } }[] = [];
    for (const [supervised, readOnly] of [[true, true], [true, false], [false, true]] as const) {
      const up = createUpstream({ baseUrl: target, apiKey: "k", timeoutMs: 5000, label: "The local service", supervised });
      const server = http.createServer((req, res) => void up.forward(req, res, "/v0/record/demo/t/query", { withKey: true, headers: {}, readOnly }));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      try {
        const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: "POST", body: "{}" });
        answers.push({ status: res.status, retry: res.headers.get("retry-after"), body: await res.json() });
      } finally {
        server.close();
        await up.close();
      }
    }
    dying.close();
    expect(answers[0]).toMatchObject({ status: 503, retry: "2", body: { error: "unavailable", message: "The local service stopped while answering and is restarting; try again in a moment." } });
    expect(answers[1]).toMatchObject({ status: 502, retry: null, body: { error: "bad_gateway", message: expect.stringContaining("whether the change was made cannot be told") } });
    // A hosted upstream's reset says nothing of restarting.
    expect(answers[2]).toMatchObject({ status: 502, body: { message: expect.stringMatching(/could not be reached \((ECONNRESET|UND_ERR_SOCKET)\)/) } });
  });
});
