/**
 * How a request's JSON body is read: one rule for the service, which runs the request, and the
 * proxy, which checks it first (permissions, the trail). Were they to read one body two ways,
 * a body the proxy could not read (say, with a byte-order mark the service skips) would be
 * checked as if it were empty and run as sent.
 */

export type JsonText = { ok: true; value: unknown } | { ok: false; message: string };

/** A leading byte-order mark is skipped; blank text is no body (`value` undefined). */
export function parseJsonText(text: string): JsonText {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (t.trim() === "") return { ok: true, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch (err) {
    return { ok: false, message: `The request body is not valid JSON: ${syntaxProblem((err as Error).message)}. Send one JSON value, such as {"limit": 10}.` };
  }
  // JSON.parse keeps the last of a key given twice: said, not silently half-read (review 54a #4:
  // a Record with "employee_id" twice was inserted under the second).
  const repeated = typeof value === "object" && value !== null ? repeatedKeyIn(t) : undefined;
  if (repeated) {
    const where = repeated.path.length ? pathText(repeated.path) : "The body";
    return { ok: false, message: `${where} gives ${JSON.stringify(repeated.key)} twice: a JSON object names each key once (only the last would be read). Send it once.` };
  }
  return { ok: true, value };
}

/**
 * The first key a JSON object of `text` (valid JSON) gives twice, and the path of that object
 * (`["records", 0]`), or undefined. One pass; strings are skipped whole, keys decoded only when
 * they hold an escape.
 */
export function repeatedKeyIn(text: string): { path: (string | number)[]; key: string } | undefined {
  const path: (string | number)[] = [];
  // Per open object its keys so far; per open array undefined.
  const keys: (Set<string> | undefined)[] = [];
  let wantKey = false;
  // From one structural character to the next (the regex engine skips numbers and literals; a
  // string is skipped by indexOf): a character-by-character loop took 5× JSON.parse's time.
  const next = /["{}[\],]/g;
  for (let m = next.exec(text); m; m = next.exec(text)) {
    const i = m.index;
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // The closing quote: the next one not escaped (an odd run of backslashes before it).
      let end = text.indexOf('"', i + 1);
      for (;;) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (wantKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes("\\") ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        const seen = keys[keys.length - 1] as Set<string>;
        if (seen.has(key)) return { path: path.slice(0, -1), key };
        seen.add(key);
        path[path.length - 1] = key;
        wantKey = false;
      }
      next.lastIndex = end + 1;
    } else if (c === 0x7b) {
      keys.push(new Set());
      path.push("");
      wantKey = true;
    } else if (c === 0x5b) {
      keys.push(undefined);
      path.push(0);
    } else if (c === 0x7d || c === 0x5d) {
      keys.pop();
      path.pop();
      wantKey = false;
    } else if (c === 0x2c) {
      if (keys[keys.length - 1]) wantKey = true;
      else path[path.length - 1] = (path[path.length - 1] as number) + 1;
    }
  }
  return undefined;
}

/** A character as a message may show it: printable as itself, else its code point (U+001F). */
const shown = (c: string) => (/^[\x21-\x7e]$/.test(c) ? `"${c}"` : `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`);

/**
 * The parser's complaint in our words, without the echo of the body it quotes (review 51a #4: a
 * gzip body came back as its raw bytes): where it stopped, and on what.
 */
function syntaxProblem(parser: string): string {
  if (/Unexpected end of JSON input/.test(parser)) return "it ends before the JSON does (cut short?)";
  const at = /at position (\d+)/.exec(parser)?.[1];
  const token = /^Unexpected token '(.+?)',/su.exec(parser)?.[1];
  const what = parser
    .replace(/^Unexpected token '(.+?)',.*$/su, "")
    .replace(/\s*in JSON at position \d+.*$/s, "")
    .replace(/\s*after JSON at position \d+.*$/s, " after the JSON")
    .trim();
  if (token !== undefined) return `unexpected character ${shown([...token][0] ?? token)}`;
  return `${what ? what.charAt(0).toLowerCase() + what.slice(1) : "not JSON"}${at === undefined ? "" : ` at character ${Number(at) + 1}`}`;
}

/** The body as an object, or undefined when it is none (no body, not JSON, an array, a scalar). */
export function jsonObjectOf(body: Buffer | string | undefined): Record<string, unknown> | undefined {
  if (body === undefined || body.length === 0) return undefined;
  // An answer to read, not a request to check: parsed as it is (a bulk update's 10,000 before-images).
  let v: unknown;
  try {
    const text = typeof body === "string" ? body : body.toString("utf8");
    v = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return undefined;
  }
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * Where in a JSON text (valid JSON) the value starting at `offset` is: its path of keys and
 * indexes (`["records", 2, "bonus"]`), for messages that name what to fix. One pass over the
 * text before `offset`; strings are skipped whole (keys decoded).
 */
export function jsonPathAt(text: string, offset: number): (string | number)[] {
  const path: (string | number)[] = [];
  const open: ("{" | "[")[] = [];
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      // A key: the string that comes where an object expects one (the path's last part is its key slot).
      if (open[open.length - 1] === "{" && path[path.length - 1] === "") path[path.length - 1] = JSON.parse(text.slice(i, j + 1)) as string;
      i = j;
    } else if (c === "{") {
      open.push("{");
      path.push("");
    } else if (c === "[") {
      open.push("[");
      path.push(0);
    } else if (c === "}" || c === "]") {
      open.pop();
      path.pop();
    } else if (c === ",") {
      const last = path.length - 1;
      if (open[open.length - 1] === "[") path[last] = (path[last] as number) + 1;
      else path[last] = "";
    }
  }
  return path;
}

/** A path as a person reads it: `records[2].bonus`, `values[1].value`. */
export function pathText(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : /^[A-Za-z_$][\w$]*$/.test(p) ? `${i ? "." : ""}${p}` : `[${JSON.stringify(p)}]`)).join("");
}
