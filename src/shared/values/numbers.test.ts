import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_EXACT, numberValueProblem, parseNumberText, roundedNumberIn } from "./numbers";

describe("parseNumberText", () => {
  it.each([
    ["42", 42],
    [" -3.5 ", -3.5],
    [".5", 0.5],
    ["195,800", 195800],
    ["-1,234.5", -1234.5],
    ["1_000", 1000],
    ["9007199254740991", MAX_EXACT],
    ["0.30000000000000004", 0.30000000000000004],
    ["0", 0],
    ["007", 7],
  ])("%s → %s", (text, n) => {
    expect(parseNumberText(text)).toEqual({ ok: true, value: n });
  });

  it.each([
    ["99999999999999999999", /beyond/],
    ["9007199254740993", /beyond/],
    ["1e3", /exponent form.*1000, not 1e3/],
    ["1E-2", /exponent/],
    ["-0", /negative zero/],
    ["-0.000", /negative zero/],
    ["0.1000000000000000055511", /stored as 0\.1/],
    ["3.14159265358979323846", /stored as 3\.141592653589793/],
    ["12abc", /not a number/],
    ["Infinity", /not a number/],
    ["1,23", /not a number/],
    ["", /not a number/],
  ])("refuses %s", (text, message) => {
    const r = parseNumberText(text);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toMatch(message);
  });

  it("never rounds: whatever it accepts prints back to the same digits", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }), fc.nat({ max: 999999 }), fc.nat({ max: 6 }), (int, frac, pad) => {
        const text = `${int}${frac ? `.${String(frac).padStart(pad, "0")}` : ""}`;
        const r = parseNumberText(text);
        if (!r.ok) return;
        // The accepted value is the typed decimal exactly (up to trailing zeros).
        expect(Number(text)).toBe(r.value);
        expect(Math.abs(r.value)).toBeLessThanOrEqual(MAX_EXACT);
        const bigIntPart = BigInt(text.split(".")[0]);
        expect(BigInt(Math.trunc(r.value))).toBe(bigIntPart === 0n ? 0n : bigIntPart);
      }),
    );
  });

  it("accepts every safe integer and refuses every integer beyond", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), (n) => {
        const r = parseNumberText(String(n));
        const safe = n >= -BigInt(MAX_EXACT) && n <= BigInt(MAX_EXACT);
        expect(r.ok).toBe(safe);
        if (r.ok) expect(BigInt(r.value)).toBe(n);
      }),
    );
  });
});

describe("numberValueProblem", () => {
  it("refuses -0, non-finite numbers and magnitudes beyond 2^53 − 1, and nothing else", () => {
    fc.assert(
      fc.property(fc.double(), (n) => {
        const refused = !Number.isFinite(n) || Object.is(n, -0) || Math.abs(n) > MAX_EXACT;
        expect(numberValueProblem(n) !== undefined).toBe(refused);
      }),
    );
  });
});

describe("roundedNumberIn: JSON numbers a parse would change", () => {
  it("names a number with more digits than a double keeps, or one past its range, and passes the rest", () => {
    expect(roundedNumberIn('{"values":[{"key":"age","value":0.1000000000000000055511}]}')).toEqual({ written: "0.1000000000000000055511", stored: "0.1", at: 32 });
    expect(roundedNumberIn('{"value":1e-400}')).toEqual({ written: "1e-400", stored: "0", at: 9 });
    expect(roundedNumberIn('{"value":12345678901234567890}')).toMatchObject({ stored: "12345678901234567000" });
    for (const ok of ['{"value":0.1}', '{"value":1e3,"x":1.50}', '{"limit":1E2}', '{"v":"0.1000000000000000055511 in a string"}', '{"v":"a \\" 1e-400"}', '{"v":123456789012345.5}', "[]"]) {
      expect(roundedNumberIn(ok), ok).toBeUndefined();
    }
  });

  it("passes every double as JSON.stringify writes it, in any body", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), (d, s) => {
        expect(roundedNumberIn(JSON.stringify({ s, v: d, w: [d, -d] }))).toBeUndefined();
      }),
    );
  });
});
