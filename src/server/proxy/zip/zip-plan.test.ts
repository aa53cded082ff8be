import { describe, expect, it } from "vitest";
import { commonFolder, contentDisposition, entryName, MAX_ITEMS, parseZipRequest } from "./zip-plan";
import { zipNameOf } from "../../../shared/storage";

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
  it("keeps a safe download name, refuses an unsafe one, and names it after the bucket when none is given", () => {
    expect(parseZipRequest({ bucket: "b", items: ["a"], name: "photos 2024" })).toMatchObject({ request: { name: "photos 2024" } });
    expect(parseZipRequest({ bucket: "my bucket", items: ["a"] })).toMatchObject({ request: { name: "my_bucket" } });
    // One it cannot use is refused, saying why (review 49a #5: replaced by the bucket's unsaid); ".zip" once.
    for (const name of ["../../etc", "a/b", "", 'résumé "q"', "x".repeat(101), "a\r\nb", 7, " ", "...", ".zip"]) {
      const p = parseZipRequest({ bucket: "b", items: ["a"], name });
      expect(p.ok, JSON.stringify(name)).toBe(false);
      if (!p.ok) expect(p.message).toMatch(/^"name" is the download's file name: 1 to 100 letters/);
    }
    expect(parseZipRequest({ bucket: "b", items: ["a"], name: "my.zip" })).toMatchObject({ request: { name: "my" } });
    expect(parseZipRequest({ bucket: "b", items: ["a"], name: "x.ZIP" })).toMatchObject({ request: { name: "x" } });
    expect(zipNameOf("team-files-Q3 (draft), final")).toBe("team-files-Q3 _draft__ final");
    expect(parseZipRequest({ bucket: "b", items: ["a"], name: zipNameOf("a/b \"c\"") })).toMatchObject({ ok: true });
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
