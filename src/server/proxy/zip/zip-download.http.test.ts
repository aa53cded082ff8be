/**
 * Download as zip through the real proxy and the real local service: folders expanded, paths
 * relative to the selection's folder, bytes intact, a missing file named inside the zip, the
 * one-time link, bad selections refused, and a person without access to the bucket refused.
 */
import { unzipSync, strFromU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromApp, raw, startTestBaseboard, type TestBaseboard } from "../testing/test-baseboard";
import { signIn, startTeamStack, type TeamStack, waitForMode } from "../../team/testing/team-stack";

let board: TestBaseboard;
const big = Buffer.from(Uint8Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 31 + 7) & 0xff));

async function upload(base: string, key: string, content: Buffer | string, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.set("key", key);
  form.set("file", new Blob([typeof content === "string" ? content : new Uint8Array(content)]), key.split("/").pop());
  const res = await fetch(`${base}/api/v0/storage/object/public-assets`, { method: "POST", headers: fromApp(base, headers), body: form });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function zipOf(base: string, body: unknown, headers: Record<string, string> = {}) {
  const start = await raw(base, "/api/zip", { method: "POST", headers: fromApp(base, { "content-type": "application/json", ...headers }), body: JSON.stringify(body) });
  return start;
}

beforeAll(async () => {
  board = await startTestBaseboard();
  await upload(board.url, "zipt/a/x.txt", "hello x");
  await upload(board.url, "zipt/a/sub/y.bin", big);
  await upload(board.url, "zipt/b.txt", "bee");
  await upload(board.url, "zipt/other/c.txt", "not selected");
});
afterAll(async () => {
  await board?.stop();
});

describe("download as zip", () => {
  it("streams the selected files and everything under the selected folders, relative to where they were selected", async () => {
    const start = await zipOf(board.url, { bucket: "public-assets", items: ["zipt/a/", "zipt/b.txt"], name: "my files" });
    expect(start.status, start.text).toBe(200);
    const { url } = start.json() as { url: string };
    const res = await fetch(`${board.url}${url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toContain('filename="my files.zip"');
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(["a/sub/y.bin", "a/x.txt", "b.txt"]);
    expect(strFromU8(files["a/x.txt"])).toBe("hello x");
    expect(Buffer.from(files["a/sub/y.bin"]).equals(big)).toBe(true);
  });

  it("names what it could not include, inside the zip; the link works once", async () => {
    const start = await zipOf(board.url, { bucket: "public-assets", items: ["zipt/b.txt", "zipt/missing.txt"] });
    const { url } = start.json() as { url: string };
    const files = unzipSync(new Uint8Array(await (await fetch(`${board.url}${url}`)).arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(["_not-included.txt", "b.txt"]);
    expect(strFromU8(files["_not-included.txt"])).toContain("zipt/missing.txt (HTTP 404)");
    const again = await raw(board.url, url);
    expect(again.status).toBe(404);
    expect(again.json()).toMatchObject({ error: "not_found", message: expect.stringContaining("start the download again") });
  });

  it("a file of the selection named like the list of files left out keeps its name; the list takes another (review 33a #3)", async () => {
    await upload(board.url, "zipt/own/_not-included.txt", "MY OWN FILE");
    const start = await zipOf(board.url, { bucket: "public-assets", items: ["zipt/own/_not-included.txt", "zipt/own/gone.txt"] });
    const { url } = start.json() as { url: string };
    const files = unzipSync(new Uint8Array(await (await fetch(`${board.url}${url}`)).arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(["_not-included (2).txt", "_not-included.txt"]);
    expect(strFromU8(files["_not-included.txt"])).toBe("MY OWN FILE");
    expect(strFromU8(files["_not-included (2).txt"])).toContain("zipt/own/gone.txt (HTTP 404)");
  });

  it("refuses a bad selection with a message that says what to fix", async () => {
    for (const [body, text] of [
      [{ bucket: "public-assets", items: [] }, "at least one"],
      [{ bucket: "public-assets", items: ["../etc/passwd"] }, "Not a key"],
      [{ items: ["a"] }, '"bucket"'],
    ] as const) {
      const res = await zipOf(board.url, body);
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ error: "validation_error", message: expect.stringContaining(text) });
    }
    const notJson = await raw(board.url, "/api/zip", { method: "POST", headers: fromApp(board.url, { "content-type": "application/json" }), body: "{" });
    expect(notJson.status).toBe(400);
  });

  it("refuses a zip the service could not fill, before making a link: no such bucket, a forbidden one (review 29a #10)", async () => {
    const none = await zipOf(board.url, { bucket: "nobucket", items: ["a.txt"] });
    expect(none.status).toBe(404);
    expect(none.json()).toMatchObject({ error: "not_found", message: 'No bucket "nobucket": nothing to zip.' });
    const vault = await zipOf(board.url, { bucket: "vault", items: ["docs/"] });
    expect(vault.status).toBe(403);
    expect(vault.json()).toMatchObject({ error: "forbidden", message: expect.stringContaining("Bucket vault is forbidden") });
  });

  it("is refused from another site (the POST needs Baseboard's own page)", async () => {
    const res = await raw(board.url, "/api/zip", { method: "POST", headers: { origin: "http://evil.example", "content-type": "application/json" }, body: JSON.stringify({ bucket: "public-assets", items: ["zipt/b.txt"] }) });
    expect(res.status).toBe(403);
  });
});

describe("download as zip, with people", () => {
  let stack: TeamStack;
  beforeAll(async () => {
    stack = await startTeamStack();
    await stack.admin.add({ email: "zip-none@example.com", role: "editor", password: "correct horse battery 9" });
    await stack.admin.grant("zip-none@example.com", "bucket:public-assets", "none");
    await stack.admin.add({ email: "zip-viewer@example.com", role: "viewer", password: "correct horse battery 9" });
    await waitForMode(stack.proxy.url, "people");
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("refuses a bucket the person may not read, and lets a viewer download; the link is theirs alone", async () => {
    const none = await signIn(stack.proxy.url, "zip-none@example.com", "correct horse battery 9");
    const refused = await zipOf(stack.proxy.url, { bucket: "public-assets", items: ["banners/"] }, { cookie: none });
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ error: "forbidden", message: expect.stringContaining("public-assets") });

    const viewer = await signIn(stack.proxy.url, "zip-viewer@example.com", "correct horse battery 9");
    const start = await zipOf(stack.proxy.url, { bucket: "public-assets", items: ["banners/"] }, { cookie: viewer });
    expect(start.status, start.text).toBe(200);
    const { url } = start.json() as { url: string };
    // Someone else holding the link gets nothing.
    expect((await raw(stack.proxy.url, url, { headers: { cookie: none } })).status).toBe(404);
    const res = await fetch(`${stack.proxy.url}${url}`, { headers: { cookie: viewer } });
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files).length).toBeGreaterThan(0);
    // A folder selected keeps its own name in the zip.
    expect(Object.keys(files).every((k) => k.startsWith("banners/"))).toBe(true);
  });
});
