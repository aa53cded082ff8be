import { describe, expect, it } from "vitest";
import { commonFolder, contentDisposition, entryName, MAX_ITEMS, parseZipRequest } from "./zip-plan";

describe("parseZipRequest", () => {
  it("takes a bucket and its keys and folders, once each", () => {
    const p = parseZipRequest({ bucket: "b", items: ["a.txt", "f/", "a.txt"] });
    expect(p).toEqual({ ok: true, request: { bucket: "b", items: ["a.txt", "f/"], name: "b" } });
  });
  it("takes a key inside a folder also asked for once, with the folder (it was in the zip twice); keeps a name in any letters", () => {
    expect(parseZipRequest({ bucket: "b", items: ["bulk/f1.txt", "bulk/", "bulk/sub/", "bulkier.txt"], name: "Über Datei" })).toEqual({
      ok: true,
      request: { bucket: "b", items: ["bulk/", "bulkier.txt"], name: "Über Datei" },
    });
  });
  it.each([
    [null, "must be JSON"],
    [{ items: ["a"] }, '"bucket"'],
    [{ bucket: "b", items: [] }, "at least one"],
    [{ bucket: "b", items: ["../x"] }, "Not a key"],
    [{ bucket: "b", items: ["/x"] }, "Not a key"],
    [{ bucket: "b", items: ["a//b"] }, "Not a key"],
    [{ bucket: "b", items: [3] }, "Not a key"],
    [{ bucket: "b", items: Array.from({ length: MAX_ITEMS + 1 }, (_, i) => `k${i}`) }, "At most"],
  ])("refuses %j with a message that says what to fix", (body, text) => {
    const p = parseZipRequest(body);
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.message).toContain(text);
  });
  it("keeps a safe download name and replaces an unsafe one with the bucket's", () => {
    expect(parseZipRequest({ bucket: "b", items: ["a"], name: "photos 2024" })).toMatchObject({ request: { name: "photos 2024" } });
    expect(parseZipRequest({ bucket: "my bucket", items: ["a"], name: "../../etc" })).toMatchObject({ request: { name: "my_bucket" } });
  });
});

describe("paths inside the zip", () => {
  it("are relative to the folder the selection was made in", () => {
    expect(commonFolder(["photos/2024/a.jpg", "photos/2024/trip/"])).toBe("photos/2024/");
    expect(commonFolder(["photos/2024/a.jpg", "photos/b.jpg"])).toBe("photos/");
    expect(commonFolder(["a.jpg", "x/b.jpg"])).toBe("");
    expect(entryName("photos/2024/trip/b.jpg", "photos/2024/")).toBe("trip/b.jpg");
  });
  it("content disposition keeps non-ASCII names and an ASCII fallback", () => {
    expect(contentDisposition("café")).toBe(`attachment; filename="caf_.zip"; filename*=UTF-8''caf%C3%A9.zip`);
  });
});
