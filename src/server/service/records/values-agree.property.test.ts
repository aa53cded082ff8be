/**
 * The app and the service accept exactly the same values (issue 23 item 1): the app's check
 * before it sends (web checkValue) and the service's check of a write (encodeWrite) answer alike
 * for every Field type, for arbitrary values and for values near each rule's edge.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FieldType } from "../../../shared/records";
import { encodeWrite } from "./values";
// eslint-disable-next-line no-restricted-imports -- this test holds the app and the service to one answer, so it imports both.
import { checkValue } from "../../../web/records/values/values.utils";

const types: FieldType[] = ["text", "number", "boolean", "date", "datetime", "json", "image", "attachment"];

const edgeStrings = fc.oneof(
  fc.constantFrom("2024-02-29", "2023-02-29", "2024-02-30", "0000-01-01", "9999-12-31", "2024-13-01", ""),
  fc.constantFrom("2024-02-30T10:00:00Z", "2024-03-01t09:30:00z", "2024-03-01T09:30:00.1234567890Z", "2024-03-01T09:30:00.123456789Z"),
  fc.constantFrom("2024-03-01T24:00:00Z", "2024-03-01T09:30Z", "2024-03-01T09:30:00+05:30", "9999-12-31T23:00:00-05:00", "a/b.png", "v123/x.png", "../x", "a\u0000b"),
  fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 })).map(
    ([y, m, d]) => `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`,
  ),
  fc
    .tuple(fc.integer({ min: 1, max: 28 }), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.string({ unit: fc.constantFrom("0", "5", "9"), maxLength: 11 }), fc.constantFrom("Z", "z", "+01:00", "-13:30", ""))
    .map(([d, h, m, frac, z]) => `2024-02-${String(d).padStart(2, "0")}T${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:00${frac ? `.${frac}` : ""}${z}`),
);
const edgeNumbers = fc.oneof(
  fc.constantFrom(0, -0, 2 ** 53, 2 ** 53 - 1, -(2 ** 53) + 1, -(2 ** 53), 1e20, 0.1, Infinity, NaN, 1e-7),
  fc.double(),
  fc.integer(),
);
const values = fc.oneof(fc.jsonValue(), edgeStrings, edgeNumbers, fc.constant(null), fc.boolean());

describe("app and service agree on every value", () => {
  for (const type of types) {
    it(`${type}`, () => {
      fc.assert(
        fc.property(values, fc.boolean(), fc.boolean(), (value, nullable, primaryKey) => {
          const field = { key: "f", type, nullable: nullable && !primaryKey, primaryKey };
          const app = checkValue(field, value as never).ok;
          const service = encodeWrite(field, value, "update", primaryKey).ok;
          expect(app).toBe(service);
        }),
        { numRuns: 3000 },
      );
    });
  }
});
