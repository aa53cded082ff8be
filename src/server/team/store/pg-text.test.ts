import fc from "fast-check";
import { expect, it } from "vitest";
import { NUL_SIGN, pgJsonText, pgText } from "./pg-text";

it("writes NUL as ␀ and a lone surrogate half as U+FFFD, keeping pairs and everything else", () => {
  expect(pgText("a\0b")).toBe(`a${NUL_SIGN}b`);
  expect(pgText("Zu\ud83drich 😀")).toBe("Zu\ufffdrich 😀");
  expect(pgText("plain")).toBe("plain");
});

it("JSON text: the same, for true escapes only; the result parses to what pgText makes of each string", () => {
  expect(pgJsonText(JSON.stringify({ a: "x\0y", b: "\\u0000", c: "\\\0", d: "\udc00", "k\0": "😀" }))).toBe(
    JSON.stringify({ a: `x${NUL_SIGN}y`, b: "\\u0000", c: `\\${NUL_SIGN}`, d: "\ufffd", [`k${NUL_SIGN}`]: "😀" }),
  );
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }))), (pairs) => {
      const v = Object.fromEntries(pairs);
      const fixed = Object.fromEntries(pairs.map(([k, s]) => [pgText(k), pgText(s)]));
      expect(JSON.parse(pgJsonText(JSON.stringify(v)))).toEqual(fixed);
    }),
  );
});
