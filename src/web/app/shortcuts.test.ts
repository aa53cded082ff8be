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
