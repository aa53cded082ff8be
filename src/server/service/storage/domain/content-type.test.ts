import { describe, expect, it } from "vitest";
import { contentTypeFor, isActiveContent } from "./content-type";

describe("contentTypeFor", () => {
  it.each([
    ["image/png", "x.jpg", "image/png"],
    ["text/plain", "photo.PNG", "text/plain"],
    [undefined, "photo.PNG", "image/png"],
    ["text/plain;charset=utf-8", "a.json", "text/plain;charset=utf-8"],
    ["Text/Plain; charset=UTF-8", "a", "text/plain; charset=UTF-8"],
    ['text/x-thing; a=1; b="two words"', "a", 'text/x-thing; a=1; b="two words"'],
    ["Text/HTML", "a", "text/html"],
    ["text/plain; charset", "a.csv", "text/csv"],
    ['text/plain; a="x\r\n', "a", "application/octet-stream"],
    ["application/octet-stream", "doc.pdf", "application/pdf"],
    ["application/octet-stream", "blob", "application/octet-stream"],
    ["text/plain", "notes.txt", "text/plain"],
    ["text/plain", "noext", "text/plain"],
    [undefined, "noext", "application/octet-stream"],
    ["Application/JSON", "a.bin", "application/json"],
    [`text/plain; x=${"y".repeat(300)}`, "a.txt", "text/plain"],
    ["not a type", "a.csv", "text/csv"],
    ["text/html\r\nx: y", "a", "application/octet-stream"],
  ])("declared %j for %j", (declared, key, expected) => {
    expect(contentTypeFor(declared, key)).toBe(expected);
  });

  it.each([
    ["text/html", true],
    ["image/svg+xml", true],
    ["application/xhtml+xml", true],
    ["image/png", false],
    ["application/pdf", false],
  ])("%s active: %s", (type, expected) => {
    expect(isActiveContent(type)).toBe(expected);
  });
});
