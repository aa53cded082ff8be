import { describe, expect, it } from "vitest";
import { destination, jobsOverlap, parseJobRequest, prefixEnd, selectionOf } from "./job-request.utils";

const parsed = (b: unknown) => parseJobRequest(b);
const message = (b: unknown) => {
  const r = parsed(b);
  return r.ok ? undefined : r.error.message;
};

describe("parseJobRequest", () => {
  it("accepts a folder move, a key copy, a delete", () => {
    expect(parsed({ action: "move", from: "docs/", to: "archive/docs/" })).toEqual({ ok: true, value: { action: "move", from: "docs/", to: "archive/docs/", overwrite: false } });
    expect(parsed({ action: "copy", from: "a.txt", to: "b/a.txt", overwrite: true })).toMatchObject({ ok: true, value: { overwrite: true } });
    expect(parsed({ action: "delete", from: "docs/" })).toMatchObject({ ok: true, value: { to: "" } });
    expect(parsed({ action: "move", from: "docs/", to: "" })).toMatchObject({ ok: true });
  });
  it("refuses what would lose or confuse files", () => {
    expect(message({ action: "move", from: "docs/", to: "docs/old/" })).toMatch(/into itself/);
    expect(message({ action: "move", from: "docs/", to: "docs/" })).toMatch(/same folder/);
    expect(message({ action: "move", from: "a.txt", to: "a.txt" })).toMatch(/same key/);
    expect(message({ action: "move", from: "docs/", to: "archive" })).toMatch(/end it with/);
    expect(message({ action: "move", from: "a.txt", to: "b/" })).toMatch(/must be a key/);
    expect(message({ action: "rename", from: "a", to: "b" })).toMatch(/action must be/);
    expect(message({ action: "delete", from: "" })).toMatch(/from must be/);
    expect(message({ action: "move", from: "a//", to: "b/" })).toMatch(/empty folder/);
    expect(message({ action: "move", from: "a", to: "b", force: true })).toMatch(/Unknown field "force"/);
    expect(message({ action: "copy", from: "a", to: "b", overwrite: "yes" })).toMatch(/overwrite/);
    expect(message([])).toMatch(/JSON object/);
    expect(message({ action: "move", from: "a/b/", to: "a/", overwrite: true })).toMatch(/into a parent/);
  });
});

describe("selection and destination", () => {
  it("covers exactly the folder", () => {
    const s = selectionOf("docs/");
    expect(s).toEqual({ kind: "folder", lo: "docs/", hi: "docs0" });
    expect("docs/z" < prefixEnd("docs/") && "docs0" >= prefixEnd("docs/")).toBe(true);
    expect(selectionOf("a.txt")).toEqual({ kind: "key", key: "a.txt" });
  });
  it("keeps the path below the folder", () => {
    expect(destination("docs/x/y.pdf", "docs/", "archive/")).toBe("archive/x/y.pdf");
    expect(destination("docs/x.pdf", "docs/", "")).toBe("x.pdf");
    expect(destination("a.txt", "a.txt", "b.txt")).toBe("b.txt");
  });
});

describe("jobsOverlap", () => {
  const job = (action: "move" | "copy" | "delete", from: string, to = "") => ({ action, from, to });
  it("finds jobs touching the same keys: a folder and what it holds, a destination, the top level", () => {
    expect(jobsOverlap(job("move", "a/", "c/"), job("delete", "a/b/"))).toBe(true);
    expect(jobsOverlap(job("move", "a/", "c/"), job("delete", "c/x.txt"))).toBe(true);
    expect(jobsOverlap(job("delete", "over/"), job("move", "over/b/", "x/b/"))).toBe(true);
    expect(jobsOverlap(job("move", "a.txt", "b.txt"), job("copy", "b.txt", "c.txt"))).toBe(true);
    expect(jobsOverlap(job("move", "docs/", ""), job("delete", "zzz/"))).toBe(true);
    expect(jobsOverlap(job("move", "a/", "c/"), job("copy", "ab/", "d/"))).toBe(false);
    expect(jobsOverlap(job("delete", "a.txt"), job("delete", "a.txt.bak"))).toBe(false);
  });
});
