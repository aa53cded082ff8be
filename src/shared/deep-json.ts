/**
 * JSON too deep for JSON.stringify (pure). The interface allows filters nested 10,000 levels
 * (decisions §4); JSON.parse reads them, but JSON.stringify recurses and overflows the stack near
 * 5,000. The trail keeps such a filter as its text, encoded here without recursion.
 */

/** Whether `value` nests objects and arrays more than `max` levels deep (walked without recursion). */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The JSON text of `value` (as JSON.stringify writes it, without its `toJSON` and replacer rules), at any depth. */
export function encodeDeep(value: unknown): string {
  let out = "";
  // Work items: a value to write, or text to append once what came before it is written.
  const work: ({ v: unknown } | string)[] = [{ v: value }];
  while (work.length) {
    const item = work.pop()!;
    if (typeof item === "string") {
      out += item;
      continue;
    }
    const v = item.v;
    if (v === null || typeof v !== "object") {
      // Scalars as JSON.stringify writes them (undefined and functions: null, as in an array).
      out += JSON.stringify(v) ?? "null";
      continue;
    }
    const entries: [string | undefined, unknown][] = Array.isArray(v) ? v.map((x) => [undefined, x]) : Object.entries(v).filter(([, x]) => x !== undefined && typeof x !== "function");
    const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
    out += open;
    work.push(close);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, x] = entries[i];
      work.push({ v: x });
      work.push(`${i > 0 ? "," : ""}${k === undefined ? "" : `${JSON.stringify(k)}:`}`);
    }
  }
  return out;
}
