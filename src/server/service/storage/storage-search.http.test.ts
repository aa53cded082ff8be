/** Whole-bucket search by name (issue 22.3): substring, any case, any depth, paged; after moves. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StorageTestService, startStorageService, upload, waitForAsync } from "./testing/storage-service";

let svc: StorageTestService;
beforeAll(async () => {
  svc = await startStorageService();
  for (const key of ["s/report.txt", "s/a/b/c/MyREPORT.pdf", "s/a/other.txt", "s/100%_done.txt", "s/100x_done.txt", "s/deep/er/Rep-ort.txt"]) {
    expect((await upload(svc, "public-assets", key, key)).status).toBe(200);
  }
  await upload(svc, "public-assets", "s/report.txt", "second version");
});
afterAll(() => svc?.close());

type Page = { items: { key: string; versionedKey: string; size: number }[]; nextCursor: string | null };
const search = async (q: string, extra = "") => {
  const res = await fetch(`${svc.url}/v0/storage/search/public-assets?q=${encodeURIComponent(q)}${extra}`, { headers: { "x-api-key": svc.key } });
  return { status: res.status, body: (await res.json()) as Page & { error?: string } };
};

describe("storage search", () => {
  it("finds a substring in any case at any depth, newest version once", async () => {
    const { body } = await search("RePoRt");
    expect(body.items.map((i) => i.key)).toEqual(["s/a/b/c/MyREPORT.pdf", "s/report.txt"]);
    expect(body.items[1].size).toBe("second version".length);
    expect(body.nextCursor).toBeNull();
  });

  it("finds a name in either Unicode spelling, composed (typed) or decomposed (named on macOS) (review 51a #7)", async () => {
    const composed = "n/caf\u00e9 menu.txt";
    const decomposed = "n/cafe\u0301 list.txt";
    for (const key of [composed, decomposed]) expect((await upload(svc, "public-assets", key, key)).status).toBe(200);
    for (const q of ["caf\u00e9", "cafe\u0301", "CAF\u00c9"]) {
      expect((await search(q)).body.items.map((i) => i.key).sort(), JSON.stringify(q)).toEqual([decomposed, composed].sort());
    }
    // Each stays its own key: nothing is renamed.
    expect((await search("menu")).body.items.map((i) => i.key)).toEqual([composed]);
  });

  it("takes % and _ literally", async () => {
    expect((await search("%_")).body.items.map((i) => i.key)).toEqual(["s/100%_done.txt"]);
  });

  it("pages by cursor", async () => {
    const first = await search("s/", "&limit=2");
    expect(first.body.items).toHaveLength(2);
    const second = await search("s/", `&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items[0].key > first.body.items[1].key).toBe(true);
    expect((await search("s/", "&cursor=%%%")).status).toBe(400);
    // Base64url that is no key's UTF-8 (it answered an empty page, as if past the end).
    const odd = await search("s/", "&cursor=zzz");
    expect(odd).toMatchObject({ status: 400, body: { error: "validation_error", message: expect.stringMatching(/nextCursor from the previous page/) } });
    expect((await search("s/", `&cursor=${Buffer.from("/bad//key").toString("base64url")}`)).status).toBe(400);
    expect((await search("")).status).toBe(400);
  });

  it("reads a job's JSON by the proxy's rule: a __proto__ key is named, not called invalid JSON; a byte-order mark is skipped", async () => {
    const job = (body: string, type = "application/json") =>
      fetch(`${svc.url}/v0/storage/jobs/public-assets`, { method: "POST", body, headers: { "x-api-key": svc.key, "content-type": type } });
    const proto = await job('{"action":"delete","from":"nothing/","__proto__":{"x":1}}');
    expect(proto.status).toBe(400);
    expect((await proto.json()).message).toMatch(/"__proto__" key, which no storage request takes/);
    const broken = await job('{"action":');
    expect(broken.status).toBe(400);
    expect((await broken.json()).message).toMatch(/^The request body is not valid JSON/);
    const bom = await job('\ufeff{"action":"copy","from":"s/100x_done.txt","to":"bom/x.txt"}', "application/json; charset=utf-8");
    expect(bom.status).toBeLessThan(300);
  });

  it("finds moved files under their new names only", async () => {
    const res = await fetch(`${svc.url}/v0/storage/jobs/public-assets`, {
      method: "POST",
      body: JSON.stringify({ action: "move", from: "s/a/", to: "moved/" }),
      headers: { "x-api-key": svc.key, "content-type": "application/json" },
    });
    const { id } = (await res.json()) as { id: string };
    await waitForAsync(async () => ((await (await fetch(`${svc.url}/v0/storage/jobs/public-assets/${id}`, { headers: { "x-api-key": svc.key } })).json()) as { state: string }).state === "done");
    expect((await search("myreport")).body.items.map((i) => i.key)).toEqual(["moved/b/c/MyREPORT.pdf"]);
    expect((await search("other")).body.items.map((i) => i.key)).toEqual(["moved/other.txt"]);
  });
});
