import { describe, expect, it } from "vitest";
import { IMMUTABLE, cacheControlFor, notModified, rangeStillValid } from "./caching";

describe("cacheControlFor (decisions §7)", () => {
  it.each([
    [{ permission: "public", versioned: true }, IMMUTABLE],
    [{ permission: "public", versioned: false }, "no-cache"],
    [{ permission: "limitedPublic", versioned: true }, "private"],
    [{ permission: "limitedPublic", versioned: false }, "private"],
    [{ permission: "public", versioned: true, signedExpires: 1060, now: 1000 }, "private, max-age=60"],
    [{ permission: "limitedPublic", versioned: true, signedExpires: 1000.5, now: 1001 }, "private, max-age=0"],
  ] as const)("%j", (opts, expected) => {
    expect(cacheControlFor(opts)).toBe(expected);
  });
});

describe("notModified", () => {
  const etag = '"abc"';
  it.each([
    [undefined, false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ["*", true],
    ['"abcd"', false],
    ["abc", false],
  ])("If-None-Match %j", (header, expected) => {
    expect(notModified(header, etag)).toBe(expected);
  });
});

describe("rangeStillValid", () => {
  it.each([
    [undefined, true],
    ['"abc"', true],
    ['"old"', false],
    ["Sat, 21 Nov 2026 10:00:00 GMT", false],
  ])("If-Range %j", (header, expected) => {
    expect(rangeStillValid(header, '"abc"')).toBe(expected);
  });
});
