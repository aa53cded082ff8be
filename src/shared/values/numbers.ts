/**
 * Numbers a JSON number keeps exactly (issue 24 item 4): never rounded, never silently changed.
 *
 * Two layers, so the service and the app agree on every value either can see:
 * - `numberValueProblem` judges a number value (what the service receives after JSON.parse and
 *   what the app sends): finite, not -0 (JSON and most clients print it as 0), and no larger in
 *   magnitude than 2^53 − 1 (beyond it neighbouring integers share one double, so 99999999999999999999
 *   would be stored as 1e20). The service refuses exactly these.
 * - `parseNumberText` reads what a person typed or pasted (the editor, paste, CSV import): on top
 *   of the value rules it refuses exponent forms (`1e3`, say 1000) and text with more digits
 *   than a double keeps (it would be stored as a different number). Only text can show these, so
 *   only readers of text refuse them; the service receives numbers, not text.
 */
import { type Result, fail, ok } from "../errors";

export const MAX_EXACT = Number.MAX_SAFE_INTEGER;
const fmt = new Intl.NumberFormat("en-US");

/** Why a number value cannot be stored exactly, or undefined when it can. */
export function numberValueProblem(n: number): string | undefined {
  if (!Number.isFinite(n)) return "is not a finite number";
  if (Object.is(n, -0)) return "is -0, which JSON does not keep apart from 0; use 0";
  if (Math.abs(n) > MAX_EXACT) return `is beyond ±${fmt.format(MAX_EXACT)} (2^53 − 1), where a JSON number no longer keeps every digit`;
  return undefined;
}

export function isExactNumber(v: unknown): v is number {
  return typeof v === "number" && numberValueProblem(v) === undefined;
}

const PLAIN = /^[-+]?(\d+\.?\d*|\.\d+)$/;
const GROUPED = /^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$/;
const UNDERSCORED = /^[-+]?\d+(_\d+)+(\.\d*)?$/;

/** Digits of a plain decimal without sign, leading zeros or trailing fraction zeros ("-012.50" → "12.5"). */
function canonical(plain: string): string {
  const unsigned = plain.replace(/^[-+]/, "");
  let [int, frac = ""] = unsigned.split(".");
  int = int.replace(/^0+(?=\d)/, "") || "0";
  frac = frac.replace(/0+$/, "");
  return frac ? `${int}.${frac}` : int;
}

const EXPONENT = /^[-+]?(\d+\.?\d*|\.\d+)e[-+]?\d+$/i;
const notNumber = (text: string, why: string): Result<never> => fail("validation_error", `"${text}" ${why}`);

/**
 * Text → a number kept exactly, or a message saying why not. Accepts 42, -3.5, .5, 195,800 (as
 * the grid shows it) and 1_000; refuses 1e3, -0, 12abc, and digits a double cannot hold.
 * Called for every cell of a number column typed, pasted or imported (a file's cells are refused a
 * thousands separator first: its numbers are written out), so the common case is a few tests.
 */
export function parseNumberText(text: string): Result<number> {
  const t = text.trim();
  const plain = PLAIN.test(t) ? t : GROUPED.test(t) || UNDERSCORED.test(t) ? t.replace(/[,_]/g, "") : undefined;
  if (plain === undefined || !PLAIN.test(plain)) {
    if (EXPONENT.test(t)) return notNumber(text, `is in exponent form; write the number out in full (e.g. 1000, not 1e3).`);
    return notNumber(text, "is not a number (e.g. 42 or 3.5).");
  }
  const n = Number(plain);
  const problem = numberValueProblem(n);
  if (problem) return notNumber(text, problem.replace(/^is -0/, "is negative zero"));
  // Up to 15 significant digits always survive a double (and 15 characters hold no more).
  if (plain.length <= 15) return ok(n);
  const want = canonical(plain);
  const significant = want.replace(".", "").replace(/^0+/, "").length;
  if (significant > 15) {
    const stored = String(Math.abs(n));
    if (stored !== want) return notNumber(text, `has more digits than a number keeps; it would be stored as ${n < 0 ? "-" : ""}${stored}.`);
  }
  return ok(n);
}

/** A decimal's digits without leading or trailing zeros and the power of ten of its last digit ("-012.50e1" → ["125", 0]); zero is ["", 0]. */
function decimalOf(token: string): [string, number] {
  const m = /^[-+]?(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(token);
  if (!m) return ["?", 0];
  const [, int = "", frac = "", exp = "0"] = m;
  let digits = (int + frac).replace(/^0+/, "");
  let power = Number(exp) - frac.length;
  const trailing = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trailing);
  power += trailing;
  return digits ? [digits, power] : ["", 0];
}

/**
 * The first JSON number in `text` (a request body) that JSON.parse cannot keep as written, with
 * what it would become and where it starts (`at`, for jsonPathAt): `0.1000000000000000055511` is read as 0.1, `1e-400` as 0. Strings are
 * skipped. Only a number of 17 or more characters of digits and a point, or with an exponent,
 * can be one, so most bodies are passed by one regular-expression test.
 */
export function roundedNumberIn(text: string): { written: string; stored: string; at: number } | undefined {
  if (!/[\d.]{17}|\d[eE]/.test(text)) return undefined;
  const tokens = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g;
  for (let m = tokens.exec(text); m; m = tokens.exec(text)) {
    const t = m[0];
    if (t.startsWith('"') || (t.length < 17 && !/[eE]/.test(t))) continue;
    const n = Number(t);
    if (!Number.isFinite(n)) continue; // said by the value rules (not a finite number)
    const [a, pa] = decimalOf(t);
    const [b, pb] = decimalOf(String(Math.abs(n)));
    if (a !== b || pa !== pb) return { written: t.slice(0, 40), stored: String(n), at: m.index };
  }
  return undefined;
}
