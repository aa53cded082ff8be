/**
 * Black-box conformance of signed URLs (interface §4.5, §5.5; decisions §7) and of the list and
 * delete extensions (decisions §7), written from the text alone and tested over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StorageListItem, StorageListResponse } from "../../../shared/storage";
import { rawRequest, upload, type StorageTestService, startStorageService } from "./testing/storage-service";

let svc: StorageTestService;

async function expectError(res: Response, status: number, error: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toEqual({ error, subCode: expect.any(Number), message: expect.any(String) });
  return body;
}

async function put(bucket: string, key: string, body: string, type = "text/plain"): Promise<string> {
  const res = await upload(svc, bucket, key, body, { type });
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { key: string }).key;
}

async function sign(bucket: string, key: string, query = ""): Promise<URL> {
  const res = await svc.call(`/v0/storage/url/sign/${bucket}/${key}${query}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { url: string };
  expect(Object.keys(body)).toEqual(["url"]);
  return new URL(body.url);
}

beforeAll(async () => {
  svc = await startStorageService();
});
afterAll(() => svc?.close());

describe("signed URLs (interface §4.5, decisions §7)", () => {
  let v1: string;
  let v2: string;
  beforeAll(async () => {
    v1 = await put("public-assets", "signed/doc.txt", "first");
    v2 = await put("public-assets", "signed/doc.txt", "second version");
  });

  it("answers {url}: absolute, endpoint 6 for the versioned key, lasting an hour by default", async () => {
    const before = Math.floor(Date.now() / 1000);
    const url = await sign("public-assets", "signed/doc.txt");
    expect(url.protocol).toMatch(/^https?:$/);
    expect(url.pathname).toBe(`/v0/storage/sign/public-assets/${v2}`);
    expect([...url.searchParams.keys()].sort()).toEqual(["Expires", "Key-Pair-Id", "Signature"]);
    const expires = Number(url.searchParams.get("Expires"));
    expect(Number.isInteger(expires)).toBe(true);
    expect(expires).toBeGreaterThanOrEqual(before + 3600 - 2);
    expect(expires).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3600 + 2);
    const res = await fetch(url.href);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("second version");
    expect(res.headers.get("etag")).toMatch(/^"/);
  });

  it("signs the version it is given, and works without a key from any address", async () => {
    const url = await sign("public-assets", v1);
    expect(url.pathname).toBe(`/v0/storage/sign/public-assets/${v1}`);
    expect(await (await fetch(url.href)).text()).toBe("first");
    const team = await put("team-files", "signed/t.txt", "team secret");
    const tUrl = await sign("team-files", team);
    const far = await rawRequest(svc, { path: `${tUrl.pathname}${tUrl.search}`, localAddress: "127.0.0.2" });
    expect(far.status).toBe(200);
    expect(far.body.toString()).toBe("team secret");
  });

  it("serves ranges and conditional requests through the signed URL", async () => {
    const url = (await sign("public-assets", v2)).href;
    const part = await fetch(url, { headers: { range: "bytes=0-5" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 0-5/14");
    expect(await part.text()).toBe("second");
    const etag = (await fetch(url)).headers.get("etag")!;
    expect((await fetch(url, { headers: { "if-none-match": etag } })).status).toBe(304);
  });

  it("expiresIn sets the lifetime from 1 to 604800 seconds; anything else is a 400", async () => {
    for (const s of [1, 60, 604800]) {
      const now = Date.now() / 1000;
      const expires = Number((await sign("public-assets", v2, `?expiresIn=${s}`)).searchParams.get("Expires"));
      expect(Math.abs(expires - (now + s))).toBeLessThanOrEqual(2);
    }
    for (const bad of ["0", "604801", "-1", "abc", "1.5", "1e3", "%2060"]) {
      await expectError(await svc.call(`/v0/storage/url/sign/public-assets/${v2}?expiresIn=${bad}`), 400, "validation_error");
    }
  });

  it("signing needs a key; a missing object or bucket is a 404; forbidden is a 403", async () => {
    const none = await fetch(`${svc.url}/v0/storage/url/sign/public-assets/${v2}`);
    expect(await expectError(none, 401, "auth_error")).toMatchObject({ subCode: 4 });
    await expectError(await svc.call("/v0/storage/url/sign/public-assets/signed/none.txt"), 404, "not_found");
    await expectError(await svc.call("/v0/storage/url/sign/public-assets/v1/signed/doc.txt"), 404, "not_found");
    await expectError(await svc.call("/v0/storage/url/sign/no-bucket/a.txt"), 404, "not_found");
    await expectError(await fetch(`${svc.url}/v0/storage/url/sign/no-bucket/a.txt`), 401, "auth_error");
    await expectError(await fetch(`${svc.url}/v0/storage/list/no-bucket`), 401, "auth_error");
    await expectError(await fetch(`${svc.url}/v0/storage/object/no-bucket/a.txt`, { method: "DELETE" }), 401, "auth_error");
    await expectError(await svc.call("/v0/storage/url/sign/vault/a.txt"), 403, "forbidden");
    const team = await put("team-files", "signed/who.txt", "x");
    await expectError(await fetch(`${svc.url}/v0/storage/url/sign/team-files/${team}`), 401, "auth_error");
    const far = await rawRequest(svc, { path: `/v0/storage/url/sign/team-files/${team}`, headers: { "x-api-key": svc.key }, localAddress: "127.0.0.2" });
    expect(far.status).toBe(403);
  });

  it("changing any character of bucket, key, Expires, Key-Pair-Id or Signature is a 403", async () => {
    const other = await put("team-files", "signed/doc.txt", "other bucket");
    expect(other).toMatch(/^v\d+\/signed\/doc\.txt$/);
    const url = await sign("public-assets", v2);
    const flip = (s: string) => s.slice(0, -1) + (s.endsWith("A") ? "B" : "A");
    const q = url.searchParams;
    const variants: string[] = [
      url.href.replace("/public-assets/", "/team-files/"),
      url.href.replace("/doc.txt", "/doc.txu"),
      url.href.replace(`/${v2}`, `/${v1}`),
      url.href.replace(`/${v2}`, "/signed/doc.txt"),
      url.href.replace(`Expires=${q.get("Expires")}`, `Expires=${Number(q.get("Expires")) + 1}`),
      url.href.replace(`Key-Pair-Id=${q.get("Key-Pair-Id")}`, `Key-Pair-Id=${flip(q.get("Key-Pair-Id")!)}`),
      url.href.replace(`Key-Pair-Id=${q.get("Key-Pair-Id")}`, "Key-Pair-Id=unknown"),
      url.href.replace(`Signature=${encodeURIComponent(q.get("Signature")!)}`, `Signature=${flip(encodeURIComponent(q.get("Signature")!))}`),
      url.href.replace(/[?&]Signature=[^&]*/, ""),
      url.href.replace(/[?&]Expires=[^&]*/, ""),
      url.href.split("?")[0],
    ];
    for (const v of variants) {
      expect(v, "the variant must differ").not.toBe(url.href);
      const res = await fetch(v);
      expect(res.status, v).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe("forbidden");
    }
    expect((await fetch(url.href)).status).toBe(200);
  });

  it("after Expires nobody can use it", async () => {
    const url = await sign("public-assets", v2, "?expiresIn=1");
    const expires = Number(url.searchParams.get("Expires"));
    await new Promise((r) => setTimeout(r, Math.max(0, (expires + 1) * 1000 - Date.now() + 50)));
    await expectError(await fetch(url.href), 403, "forbidden");
    await expectError(await fetch(url.href, { headers: { "x-api-key": svc.key } }), 403, "forbidden");
  });
});

describe("list extension (decisions §7)", () => {
  const keys = ["list/b.txt", "list/a.txt", "list/sub/c.txt", "list/sub/deeper/d.txt", "list/z/e.txt", "listing.txt", "list/c.png"];
  const latest = new Map<string, string>();
  beforeAll(async () => {
    for (const k of keys) latest.set(k, await put("public-assets", k, `body of ${k}`, k.endsWith(".png") ? "image/png" : "text/plain"));
    latest.set("list/a.txt", await put("public-assets", "list/a.txt", "newer a", "text/markdown"));
  });

  const list = async (query: string) => {
    const res = await svc.call(`/v0/storage/list/public-assets?${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as StorageListResponse;
  };

  it("lists latest versions, one folder level, sorted by key, in the documented shape", async () => {
    const page = await list("prefix=list/");
    expect(Object.keys(page).sort()).toEqual(["folders", "items", "nextCursor"]);
    expect(page.items.map((i) => i.key)).toEqual(["list/a.txt", "list/b.txt", "list/c.png"]);
    expect(page.folders).toEqual(["list/sub/", "list/z/"]);
    expect(page.nextCursor).toBeNull();
    const a = page.items[0] as StorageListItem;
    expect(Object.keys(a).sort()).toEqual(["contentType", "etag", "key", "lastModified", "size", "versionedKey"]);
    expect(a.versionedKey).toBe(latest.get("list/a.txt"));
    expect(a.size).toBe(7);
    expect(a.contentType).toBe("text/markdown");
    expect(new Date(a.lastModified).toISOString()).toBe(a.lastModified);
    const got = await fetch(`${svc.url}/v0/storage/public/public-assets/${a.versionedKey}`);
    expect(a.etag).toBe(got.headers.get("etag"));
  });

  it("pages with cursor and limit without losing or repeating a key", async () => {
    const seen: string[] = [];
    let cursor: string | null = "";
    let pages = 0;
    do {
      const page: StorageListResponse = await list(`prefix=list/&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.items.length).toBeLessThanOrEqual(1);
      seen.push(...page.items.map((i) => i.key));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    expect(seen).toEqual(["list/a.txt", "list/b.txt", "list/c.png"]);
  });

  it("gives every sub-folder with the first page, however many files come first, and none again after", async () => {
    const first = await list("prefix=list/&limit=1");
    expect(first.items.map((i) => i.key)).toEqual(["list/a.txt"]);
    expect(first.folders).toEqual(["list/sub/", "list/z/"]);
    let cursor = first.nextCursor;
    const later: string[] = [];
    while (cursor) {
      const page: StorageListResponse = await list(`prefix=list/&limit=1&cursor=${encodeURIComponent(cursor)}`);
      later.push(...page.folders);
      cursor = page.nextCursor;
    }
    expect(later).toEqual([]);
    // Characters beyond ASCII and the BMP in the prefix and the names (the store counts characters).
    for (const k of ["ünï😀/a.txt", "ünï😀/ß/b.txt", "ünï😀/日本/c/d.txt", "ünï😀/😀x/e.txt"]) await put("public-assets", k, "x");
    expect((await list(`prefix=${encodeURIComponent("ünï😀/")}&limit=1`)).folders.sort()).toEqual(["ünï😀/ß/", "ünï😀/日本/", "ünï😀/😀x/"].sort());
  });

  it("sorts by key in code point order, across pages", async () => {
    for (const k of ["sort/é.txt", "sort/a.txt", "sort/B.txt", "sort/z.txt", "sort/a b.txt", "sort/a-b.txt"]) await put("public-assets", k, "x");
    const expected = ["sort/B.txt", "sort/a b.txt", "sort/a-b.txt", "sort/a.txt", "sort/z.txt", "sort/é.txt"];
    expect((await list("prefix=sort/")).items.map((i) => i.key)).toEqual(expected);
    const first = await list("prefix=sort/&limit=4");
    const second = await list(`prefix=sort/&limit=4&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect([...first.items, ...second.items].map((i) => i.key)).toEqual(expected);
    expect(second.nextCursor).toBeNull();
  });

  it("the root lists top-level files and folders; a deeper prefix its own level", async () => {
    const root = await list("");
    expect(root.folders).toContain("list/");
    expect(root.items.map((i) => i.key)).toContain("listing.txt");
    expect(root.items.every((i) => !i.key.includes("/"))).toBe(true);
    expect((await list("prefix=list/sub/")).items.map((i) => i.key)).toEqual(["list/sub/c.txt"]);
  });

  it("count=deep: the first page says how many keys lie under the prefix at any depth (each key once, whatever its versions)", async () => {
    const page = await list("prefix=list/&limit=1&count=deep");
    // list/a.txt (two versions), b.txt, c.png, sub/c.txt, sub/deeper/d.txt, z/e.txt; not listing.txt.
    expect(page.count).toBe(6);
    expect(page.items).toHaveLength(1);
    expect((await list("prefix=list/sub/&count=deep")).count).toBe(2);
    expect((await list("prefix=nothing-here/&count=deep")).count).toBe(0);
    // Without it, or on a later page, no count (the shape stays as documented).
    expect("count" in (await list("prefix=list/"))).toBe(false);
    const first = await list("prefix=list/&limit=1");
    expect("count" in (await list(`prefix=list/&limit=1&count=deep&cursor=${encodeURIComponent(first.nextCursor as string)}`))).toBe(false);
    await expectError(await svc.call("/v0/storage/list/public-assets?prefix=list/&count=yes"), 400, "validation_error");
  });

  it("needs a key; a missing bucket is a 404; bad paging is a 400", async () => {
    await expectError(await fetch(`${svc.url}/v0/storage/list/public-assets`), 401, "auth_error");
    await expectError(await svc.call("/v0/storage/list/no-bucket"), 404, "not_found");
    await expectError(await svc.call("/v0/storage/list/vault"), 403, "forbidden");
    for (const q of ["limit=0", "limit=-1", "limit=abc", "cursor=%00garbage"]) {
      await expectError(await svc.call(`/v0/storage/list/public-assets?${q}`), 400, "validation_error");
    }
  });
});

describe("delete extension (decisions §7)", () => {
  it("deletes every version of an unversioned key", async () => {
    const a = await put("public-assets", "del/x.txt", "one");
    const b = await put("public-assets", "del/x.txt", "two");
    const res = await svc.call("/v0/storage/object/public-assets/del/x.txt", { method: "DELETE" });
    expect(res.status).toBe(200);
    for (const k of [a, b, "del/x.txt"]) {
      await expectError(await fetch(`${svc.url}/v0/storage/public/public-assets/${k}`), 404, "not_found");
    }
    const listed = (await (await svc.call("/v0/storage/list/public-assets?prefix=del/")).json()) as StorageListResponse;
    expect(listed.items).toEqual([]);
    await expectError(await svc.call("/v0/storage/object/public-assets/del/x.txt", { method: "DELETE" }), 404, "not_found");
    expect((await upload(svc, "public-assets", "del/x.txt", "again")).status).toBeLessThan(300);
  });

  it("needs a key; refuses a versioned key, a missing bucket and a forbidden one", async () => {
    const v = await put("public-assets", "del/y.txt", "y");
    await expectError(await fetch(`${svc.url}/v0/storage/object/public-assets/del/y.txt`, { method: "DELETE" }), 401, "auth_error");
    await expectError(await svc.call(`/v0/storage/object/public-assets/${v}`, { method: "DELETE" }), 400, "validation_error");
    await expectError(await svc.call("/v0/storage/object/no-bucket/del/y.txt", { method: "DELETE" }), 404, "not_found");
    await expectError(await svc.call("/v0/storage/object/vault/del/y.txt", { method: "DELETE" }), 403, "forbidden");
    expect((await fetch(`${svc.url}/v0/storage/public/public-assets/${v}`)).status).toBe(200);
  });
});
