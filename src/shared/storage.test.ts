import { describe, expect, it } from "vitest";
import { encodeKeyPath, parseObjectKey, validateObjectKey } from "./storage";

describe("validateObjectKey (decisions §7)", () => {
  it.each([
    ["photo.png"],
    ["docs/2024/report final.pdf"],
    ["ünïcødé/日本語.txt"],
    ["emoji/😀.png"],
    ["a".repeat(1024)],
    ["é".repeat(512)],
    ["v/not-a-version.txt"],
    ["v12a/x"],
    ["folder.with.dots/..hidden"],
    ["100% sure.txt"],
    ["Invoice%202024.pdf"],
    ["a%41b%25c"],
    ["x/v123/y"],
  ])("accepts %j", (key) => {
    expect(validateObjectKey(key)).toEqual({ ok: true, value: key });
  });

  it.each([
    ["", /empty/],
    ["a".repeat(1025), /1025 bytes/],
    ["é".repeat(513), /1026 bytes/],
    ["/etc/passwd", /starts with \//],
    ["../x", /"\.\." segment/],
    ["a/../../x", /"\.\." segment/],
    ["./x", /"\." segment/],
    ["a//b", /empty folder/],
    ["a/", /empty folder/],
    ["a\\b", /backslash/],
    ["..\\x", /backslash/],
    ["a\u0000b", /control/],
    ["a\nb", /control/],
    ["a\tb", /control/],
    ["a\u007fb", /control/],
    ["a\u0085b", /control/],
    ["v123/x", /reserved for versions/],
    ["v0/x", /reserved for versions/],
    ["%2e%2e/x", /percent-encoded/],
    ["..%2fx", /percent-encoded/],
    ["a%2Fb", /percent-encoded/],
    ["a%252fb", /percent-encoded/],
    ["a%5cb", /percent-encoded/],
    ["a%00b", /percent-encoded/],
    ["bad\ud800half", /lone surrogate/],
    ["a\ufffd.txt", /not valid UTF-8 \(it has bytes that decode to U\+FFFD/],
  ])("refuses %j", (key, message) => {
    const r = validateObjectKey(key);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("validation_error");
      expect(r.error.message).toMatch(message);
    }
  });
});

describe("parseObjectKey", () => {
  it.each([
    ["a/b.txt", { key: "a/b.txt" }],
    ["v1700000000000/a/b.txt", { key: "a/b.txt", version: 1700000000000 }],
    ["v1/x", { key: "x", version: 1 }],
  ])("%j", (raw, expected) => {
    expect(parseObjectKey(raw)).toEqual({ ok: true, value: expected });
  });

  it.each(["v1/", "v1/../x", "v1/v2/x", "v99999999999999999999/x", "/v1/x"])("refuses %j", (raw) => {
    expect(parseObjectKey(raw).ok).toBe(false);
  });
});

describe("encodeKeyPath", () => {
  it.each([
    ["a/b c.txt", "a/b%20c.txt"],
    ["v1/100%.txt", "v1/100%25.txt"],
    ["q?/#x", "q%3F/%23x"],
  ])("%j -> %j", (key, path) => {
    expect(encodeKeyPath(key)).toBe(path);
  });
});
