import { describe, expect, it } from "vitest";
import {
  baseName,
  breadcrumbs,
  encodeKeyPath,
  extensionOf,
  folderNameFromList,
  folderNameProblem,
  folderPrefix,
  levelFromKeys,
  normalizeFolder,
  parentFolder,
  pendingChildren,
  stripVersion,
  uploadKeyFor,
  uploadKeyProblem,
  versionOf,
} from "./paths.utils";

describe("names a file cannot be uploaded under", () => {
  it.each<[string, RegExp | null]>([
    ["docs/my report é ü 日本.txt", null],
    ["docs/bad\\name.txt", /backslash.*Rename the file/],
    ["docs/report%2Ffinal.txt", /“%” followed by two hex digits.*Rename the file/],
    ["docs/report%20final.txt", null],
    ["docs/100% done.txt", null],
    ["docs/tab\there.txt", /control character.*Rename the file/],
    [`docs/${"x".repeat(1100)}`, /at most 1024 bytes.*Rename the file/],
  ])("%j", (key, problem) => {
    const p = uploadKeyProblem(key);
    if (problem === null) expect(p).toBeNull();
    else expect(p).toMatch(problem);
  });
});

describe("folders as strings", () => {
  it.each([
    ["", ""],
    [undefined, ""],
    ["docs", "docs"],
    ["docs/", "docs"],
    ["/docs//img/", "docs/img"],
    ["a/./b/../c", "a/b/c"],
  ])("normalizeFolder(%j) = %j", (input, out) => expect(normalizeFolder(input)).toBe(out));

  it.each([
    ["", ""],
    ["docs", "docs/"],
    ["docs/img/", "docs/img/"],
  ])("folderPrefix(%j) = %j", (input, out) => expect(folderPrefix(input)).toBe(out));

  it.each([
    ["", ""],
    ["docs", ""],
    ["docs/img", "docs"],
  ])("parentFolder(%j) = %j", (input, out) => expect(parentFolder(input)).toBe(out));

  it("breadcrumbs start at the bucket and end at the folder", () => {
    expect(breadcrumbs("team-files", "docs/2024/q1")).toEqual([
      { label: "team-files", folder: "" },
      { label: "docs", folder: "docs" },
      { label: "2024", folder: "docs/2024" },
      { label: "q1", folder: "docs/2024/q1" },
    ]);
    expect(breadcrumbs("b", "")).toEqual([{ label: "b", folder: "" }]);
  });
});

describe("names and keys", () => {
  it.each([
    ["a/b/c.png", "c.png", "png"],
    ["c.tar.GZ", "c.tar.GZ", "gz"],
    [".env", ".env", ""],
    ["docs/", "docs", ""],
    ["README", "README", ""],
  ])("%j → name %j, extension %j", (key, name, ext) => {
    expect(baseName(key)).toBe(name);
    expect(extensionOf(key)).toBe(ext);
  });

  it("strips and reads the version prefix only at the start", () => {
    expect(stripVersion("v1732200000000/docs/a.txt")).toBe("docs/a.txt");
    expect(stripVersion("docs/v12/a.txt")).toBe("docs/v12/a.txt");
    expect(versionOf("v42/a")).toBe("42");
    expect(versionOf("a/v42")).toBeUndefined();
  });

  it("encodes each segment and keeps the slashes", () => {
    expect(encodeKeyPath("a b/c#d?.png")).toBe("a%20b/c%23d%3F.png");
    expect(encodeKeyPath("ünï/x")).toBe("%C3%BCn%C3%AF/x");
  });

  it.each([
    ["docs", "a.png", undefined, "docs/a.png"],
    ["", "a.png", undefined, "a.png"],
    ["docs", "a.png", "./pics/a.png", "docs/pics/a.png"],
    ["docs", "a.png", "/pics/a.png", "docs/pics/a.png"],
    ["docs", "a.png", "a.png", "docs/a.png"],
  ])("uploadKeyFor(%j, %j, %j) = %j", (folder, name, rel, out) => expect(uploadKeyFor(folder, name, rel)).toBe(out));
});

describe("folders from the list and from keys", () => {
  it.each([
    ["docs/img/", "docs/", "img"],
    ["img/", "docs/", "img"],
    ["img", "docs/", "img"],
    ["catalog/", "", "catalog"],
  ])("folderNameFromList(%j, %j) = %j", (entry, prefix, out) => expect(folderNameFromList(entry, prefix)).toBe(out));

  it("splits a flat key list into one folder level", () => {
    const keys = ["a.txt", "docs/b.txt", "docs/img/c.png", "docs/img/d.png", "docs/z/e", "other/f"].map((key) => ({ key }));
    expect(levelFromKeys(keys, "")).toEqual({ files: [{ key: "a.txt" }], folders: ["docs", "other"] });
    expect(levelFromKeys(keys, "docs")).toEqual({ files: [{ key: "docs/b.txt" }], folders: ["img", "z"] });
    expect(levelFromKeys(keys, "docs/img").files.map((f) => f.key)).toEqual(["docs/img/c.png", "docs/img/d.png"]);
    expect(levelFromKeys(keys, "nope")).toEqual({ files: [], folders: [] });
  });
});

describe("new folder names", () => {
  it.each([
    ["reports", {}, null],
    ["reports/2024", {}, null],
    ["", {}, "Type a folder name."],
    ["/x", {}, "Leave out"],
    ["x/", {}, "Leave out"],
    ["a\\b", {}, "not “\\”"],
    ["a//b", {}, "empty part"],
    ["a/../b", {}, "cannot be folder names"],
    ["v12", { atRoot: true }, "reserved"],
    ["v12", { atRoot: false }, null],
    ["docs", { existing: ["docs"] }, "already exists"],
    ["a\u0001", {}, "control characters"],
    // What the service refuses in a key is refused here (its files could never be uploaded).
    ["ok%2fsneaky", {}, "two hex digits"],
    ["ok%252Esneaky", {}, "two hex digits"],
    ["100%", {}, null],
  ])("folderNameProblem(%j, %j)", (name, opts, expected) => {
    const got = folderNameProblem(name, opts);
    if (expected === null) expect(got).toBeNull();
    else expect(got).toContain(expected);
  });
});

describe("pending folders", () => {
  it.each([
    [["new", "docs/x/y"], "", ["new", "docs"]],
    [["new", "docs/x/y"], "docs", ["x"]],
    [["docs/x/y"], "docs/x/y", []],
    [["docsy/a"], "docs", []],
  ])("pendingChildren(%j, %j) = %j", (pending, folder, out) => expect(pendingChildren(pending, folder)).toEqual(out));
});
