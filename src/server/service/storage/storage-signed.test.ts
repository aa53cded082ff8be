/** Signed URLs (endpoints 5 and 6) over real HTTP: issue 3 items 5 and 7. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { retireSigningKey, rotateSigningKey } from "./domain/signing";
import { rawRequest, upload, type StorageTestService, startStorageService } from "./testing/storage-service";

// Signed URLs are built on the configured public base (the launcher sets the proxy's /api),
// never on the Host header; the tests map that base back onto the service.
const BASE = "http://proxy.example:5173/api";
let svc: StorageTestService;
let versioned = "";
let png: Buffer;

beforeAll(async () => {
  svc = await startStorageService({ seed: false, publicBaseUrl: BASE });
  versioned = (await (await upload(svc, "team-files", "shared/report final.txt", "signed content", { type: "text/plain" })).json()).key;
  png = await sharp({ create: { width: 400, height: 200, channels: 3, background: "#3a6ea5" } }).png().toBuffer();
  await upload(svc, "team-files", "shared/pic.png", png, { type: "image/png" });
});
afterAll(() => svc.close());

async function sign(key: string, query = ""): Promise<string> {
  const r = await svc.call(`/v0/storage/url/sign/team-files/${key}${query}`, { headers: { host: "evil.example" } });
  expect(r.status).toBe(200);
  const { url } = await r.json();
  return url;
}
/** The path and query of a signed URL, to send to the service itself. */
const local = (url: string) => url.slice(BASE.length);
const fetchSigned = (pathAndQuery: string, headers: Record<string, string> = {}, localAddress?: string) =>
  rawRequest(svc, { path: pathAndQuery, headers, localAddress });

describe("endpoint 5: get a signed URL", () => {
  it("returns an absolute URL on the configured base, naming the versioned key, valid for 3600 s by default", async () => {
    const before = Math.floor(Date.now() / 1000);
    const url = new URL(await sign("shared/report%20final.txt"));
    expect(url.origin + url.pathname.slice(0, 4)).toBe("http://proxy.example:5173/api");
    expect(decodeURIComponent(url.pathname)).toBe(`/api/v0/storage/sign/team-files/${versioned}`);
    expect([...url.searchParams.keys()]).toEqual(["Expires", "Key-Pair-Id", "Signature"]);
    const expires = Number(url.searchParams.get("Expires"));
    expect(expires - before).toBeGreaterThanOrEqual(3600);
    expect(expires - before).toBeLessThanOrEqual(3602);
  });

  it("takes expiresIn from 1 to 604800", async () => {
    const url = new URL(await sign("shared/pic.png", "?expiresIn=604800"));
    expect(Number(url.searchParams.get("Expires")) - Date.now() / 1000).toBeGreaterThan(604_700);
    for (const bad of ["0", "604801", "-5", "1.5", "soon"]) {
      const r = await svc.call(`/v0/storage/url/sign/team-files/shared/pic.png?expiresIn=${bad}`);
      expect(r.status).toBe(400);
      expect((await r.json()).message).toMatch(/expiresIn must be one whole number from 1 to 604800/);
    }
  });

  it("signs a named version, and 404s for an unknown key", async () => {
    expect(decodeURIComponent(new URL(await sign(versioned)).pathname)).toBe(`/api/v0/storage/sign/team-files/${versioned}`);
    expect((await svc.call("/v0/storage/url/sign/team-files/shared/nope.txt")).status).toBe(404);
  });
});

describe("signing many at once (the signMany extension)", () => {
  const many = (body: unknown) => svc.call("/v0/storage/url/sign/team-files", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("answers each key in the order asked, plain or versioned (the newest or an older one), and says why a key has none", async () => {
    const older = (await (await upload(svc, "team-files", "shared/many.txt", "first", { type: "text/plain" })).json()).key as string;
    const newest = (await (await upload(svc, "team-files", "shared/many.txt", "second", { type: "text/plain" })).json()).key as string;
    const r = await many({ keys: ["shared/many.txt", older, newest, "shared/report final.txt", "shared/nope.txt", "a/../b"], expiresIn: 600 });
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    const { items } = (await r.json()) as { items: { key: string; url?: string; error?: string; message?: string }[] };
    expect(items.map((i) => i.key)).toEqual(["shared/many.txt", older, newest, "shared/report final.txt", "shared/nope.txt", "a/../b"]);
    const bodies = await Promise.all(items.slice(0, 4).map(async (i) => (await fetchSigned(local(i.url!))).body.toString()));
    expect(bodies).toEqual(["second", "first", "second", "signed content"]);
    // The same URL endpoint 5 gives for it (one contract), and the lifetime asked.
    expect(decodeURIComponent(new URL(items[0].url!).pathname)).toBe(`/api/v0/storage/sign/team-files/${newest}`);
    expect(Number(new URL(items[0].url!).searchParams.get("Expires")) - Date.now() / 1000).toBeLessThanOrEqual(600);
    expect(items[4]).toMatchObject({ error: "not_found", message: 'There is no object "shared/nope.txt" in bucket "team-files".' });
    expect(items[5]).toMatchObject({ error: "validation_error", message: expect.stringMatching(/\.\./) });
  });

  it("refuses a body it cannot take, saying what to send; is advertised in capabilities", async () => {
    for (const [body, said] of [
      [{ keys: [] }, /keys must be a list of 1 to 500 object keys/],
      [{ keys: Array(501).fill("a.txt") }, /1 to 500 .*several requests/],
      [{ keys: ["a.txt", 5] }, /keys must be a list/],
      [{ keys: ["a.txt"], expiresIn: 0 }, /expiresIn must be one whole number of seconds from 1 to 604800/],
      [{ keys: ["a.txt"], lifetime: 5 }, /Unknown property "lifetime"/],
      [["a.txt"], /Send \{"keys"/],
    ] as const) {
      const r = await many(body);
      expect(r.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect((await r.json()).message).toMatch(said);
    }
    expect((await svc.call("/v0/storage/url/sign/team-files", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "wrong" }, body: JSON.stringify({ keys: ["a.txt"] }) })).status).toBe(401);
    expect(((await (await svc.call("/v0/meta")).json()) as { capabilities: { signMany?: boolean } }).capabilities.signMany).toBe(true);
  });
});

describe("endpoint 6: serve a signed URL", () => {
  it("serves the file with no key, from an address outside the allow list, with ranges", async () => {
    const path = local(await sign("shared/report%20final.txt"));
    const r = await fetchSigned(path, {}, "127.0.0.2").catch(() => fetchSigned(path));
    expect(r.status).toBe(200);
    expect(r.body.toString()).toBe("signed content");
    // The seconds left on the signature: 3600 less the time since signing (seconds under load).
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(String(r.headers["cache-control"]))?.[1]);
    expect(maxAge).toBeGreaterThan(3580);
    expect(maxAge).toBeLessThanOrEqual(3600);
    const part = await fetchSigned(path, { range: "bytes=0-5" });
    expect(part.status).toBe(206);
    expect(part.body.toString()).toBe("signed");
  });

  it("serves resized images too", async () => {
    const path = local(await sign("shared/pic.png"));
    const r = await fetchSigned(`${path}&w=100`);
    expect(r.status).toBe(200);
    const meta = await sharp(r.body).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([100, 50, "png"]);
  });

  describe("any tampering is a 403", () => {
    let url: URL;
    beforeAll(async () => {
      url = new URL(await sign("shared/report%20final.txt"));
    });
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const variants: [string, (u: URL) => string][] = [
      ["bucket", (u) => local(u.href).replace("/team-files/", "/team-filez/")],
      ["bucket to another real bucket", (u) => local(u.href).replace("/team-files/", "/public-assets/")],
      ["key", (u) => local(u.href).replace("final.txt", "finak.txt")],
      ["key made hostile", (u) => local(u.href).replace("shared/", "../")],
      ["version", (u) => local(u.href).replace(/\/team-files\/v(\d+)\//, (_m, v) => `/team-files/v${Number(v) + 1}/`)],
      ["version dropped", (u) => local(u.href).replace(/\/team-files\/v\d+\//, "/team-files/")],
      ["Expires", (u) => local(u.href).replace(/Expires=(\d+)/, (_m, e) => `Expires=${Number(e) + 1}`)],
      ["Expires with a leading zero", (u) => local(u.href).replace("Expires=", "Expires=0")],
      ["Key-Pair-Id", (u) => local(u.href).replace(/Key-Pair-Id=kp_(.)/, (_m, c) => `Key-Pair-Id=kp_${c === "a" ? "b" : "a"}`)],
      ["Signature first character", (u) => local(u.href).replace(/Signature=([^&]+)/, (_m, s) => `Signature=${flip(s, 0)}`)],
      ["Signature last character", (u) => local(u.href).replace(/Signature=([^&]+)/, (_m, s) => `Signature=${flip(s, s.length - 1)}`)],
      ["Signature removed", (u) => local(u.href).replace(/&Signature=[^&]+/, "")],
      ["Signature doubled", (u) => `${local(u.href)}&Signature=x`],
    ];
    it.each(variants)("%s", async (_what, tamper) => {
      const r = await fetchSigned(tamper(url));
      expect(r.status).toBe(403);
      expect(JSON.parse(r.body.toString())).toMatchObject({ error: "forbidden", message: expect.stringMatching(/signed URL is not valid/) });
    });
  });

  it("an unknown key pair is a 403", async () => {
    const path = local(await sign("shared/pic.png")).replace(/Key-Pair-Id=[^&]+/, "Key-Pair-Id=kp_000000000000");
    expect((await fetchSigned(path)).status).toBe(403);
  });

  it("expires: expiresIn=1 works at once and is a 403 two seconds later", async () => {
    const path = local(await sign("shared/pic.png", "?expiresIn=1"));
    const start = Date.now();
    const first = await fetchSigned(path);
    // Expires is whole seconds, so "1 s" may already be over if the signing crossed a second boundary.
    if (Date.now() - start < 500) expect([200, 403]).toContain(first.status);
    await new Promise((r) => setTimeout(r, 2100));
    const r = await fetchSigned(path);
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body.toString()).message).toMatch(/expired/);
  });

  it("rotation: an old pair keeps verifying until it is retired", async () => {
    const old = local(await sign("shared/pic.png"));
    const oldId = /Key-Pair-Id=([^&]+)/.exec(old)![1];
    const keysFile = svc.service.context.config.signingKeysFile;
    const newId = rotateSigningKey(keysFile);
    // A rotation is seen within a second (the file is re-read in the background, never on the request path).
    let fresh = local(await sign("shared/pic.png"));
    for (let i = 0; i < 40 && !fresh.includes(`Key-Pair-Id=${newId}`); i++) {
      await new Promise((r) => setTimeout(r, 50));
      fresh = local(await sign("shared/pic.png"));
    }
    expect(fresh).toContain(`Key-Pair-Id=${newId}`);
    expect((await fetchSigned(old)).status).toBe(200);
    expect((await fetchSigned(fresh)).status).toBe(200);
    retireSigningKey(keysFile, oldId);
    let r = await fetchSigned(old);
    for (let i = 0; i < 40 && r.status === 200; i++) {
      await new Promise((res) => setTimeout(res, 50));
      r = await fetchSigned(old);
    }
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body.toString()).message).toMatch(/unknown or retired/);
    expect((await fetchSigned(fresh)).status).toBe(200);
  });

  it("a deleted object behind a valid signature is a 404", async () => {
    await upload(svc, "team-files", "shared/gone.txt", "x");
    const path = local(await sign("shared/gone.txt"));
    await svc.call("/v0/storage/object/team-files/shared/gone.txt", { method: "DELETE" });
    expect((await fetchSigned(path)).status).toBe(404);
  });
});
