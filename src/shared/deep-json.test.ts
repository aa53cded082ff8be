import fc from "fast-check";
import { expect, it } from "vitest";
import { deeperThan, encodeDeep } from "./deep-json";

it("writes what JSON.stringify writes, for any JSON value", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (v) => {
      expect(encodeDeep(v)).toBe(JSON.stringify(v));
    }),
  );
});

it("writes a filter nested 10,000 levels (JSON.stringify overflows), and reads back the same", () => {
  let f: unknown = { key: "a", operator: "equal", value: "x\"y" };
  for (let i = 0; i < 10_000; i++) f = { and: [f] };
  expect(() => JSON.stringify(f)).toThrow(RangeError);
  const text = encodeDeep(f);
  expect(text.startsWith('{"and":[{"and":[')).toBe(true);
  let back = JSON.parse(text) as { and?: unknown[] };
  for (let i = 0; i < 10_000; i++) back = back.and![0] as { and?: unknown[] };
  expect(back).toEqual({ key: "a", operator: "equal", value: "x\"y" });
});

it("tells a value deeper than a limit", () => {
  expect(deeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
  expect(deeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
  expect(deeperThan("text", 0)).toBe(false);
});
