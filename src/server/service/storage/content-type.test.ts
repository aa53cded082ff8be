import { describe, expect, it } from "vitest";
import { contentTypeFor, isActiveContent } from "./content-type";

describe("contentTypeFor", () => {
  it.each([
    ["image/png", "x.jpg", "image/png"],
    ["text/plain", "photo.PNG", "image/png"],
    ["application/octet-stream", "doc.pdf", "application/pdf"],
    ["application/octet-stream", "blob", "application/octet-stream"],
    ["text/plain", "notes.txt", "text/plain"],
    ["text/plain", "noext", "text/plain"],
    [undefined, "noext", "application/octet-stream"],
    ["Application/JSON", "a.bin", "application/json"],
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
