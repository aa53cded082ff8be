import { describe, expect, it } from "vitest";
import { isTypingTarget } from "./shortcuts";

describe("isTypingTarget", () => {
  it.each([
    [{ tagName: "INPUT", type: "text" }, true],
    [{ tagName: "INPUT", type: "" }, true],
    [{ tagName: "INPUT", type: "number" }, true],
    [{ tagName: "INPUT", type: "date" }, true],
    [{ tagName: "TEXTAREA" }, true],
    [{ tagName: "SELECT" }, true],
    [{ tagName: "DIV", isContentEditable: true }, true],
    // A focused row checkbox or a button must not swallow "?" or Ctrl+Z.
    [{ tagName: "INPUT", type: "checkbox" }, false],
    [{ tagName: "INPUT", type: "radio" }, false],
    [{ tagName: "BUTTON", type: "button" }, false],
    [{ tagName: "DIV" }, false],
    [null, false],
  ])("%j → %s", (target, expected) => {
    expect(isTypingTarget(target as unknown as EventTarget)).toBe(expected);
  });
});

describe("the help lists every shortcut a control announces", () => {
  it("each aria-keyshortcuts in the app is in the list (Ctrl+Shift+Enter was missing: review 31b #6)", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const { shortcuts } = await import("./shortcuts");
    const walk = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith(".tsx") ? [path.join(dir, e.name)] : []));
    const announced = walk(path.resolve(import.meta.dirname, "..")).flatMap((f) => [...fs.readFileSync(f, "utf8").matchAll(/aria-keyshortcuts="([^"]*)"/g)].map((m) => m[1].split(" ")[0]));
    expect(announced.length).toBeGreaterThan(0);
    const listed = shortcuts.map((s) => s.keys.join("+").replace("Ctrl/⌘", "Control"));
    for (const keys of announced) expect(listed, keys).toContain(keys);
  });
});
