import { describe, expect, it } from "vitest";
import { jsonPathAt, parseJsonText, pathText, repeatedKeyIn } from "./json-text";

describe("where a value is in a JSON text", () => {
  const at = (text: string, needle: string) => jsonPathAt(text, text.indexOf(needle));
  it("names keys and indexes down to the value", () => {
    const t = '{"records":[{"id":"a","n":1},{"id":"b","bonus":0.10000000000000000555}],"x":2}';
    expect(at(t, "0.1000")).toEqual(["records", 1, "bonus"]);
    expect(pathText(at(t, "0.1000"))).toBe("records[1].bonus");
    expect(at(t, "2}")).toEqual(["x"]);
    const u = '{"filter":{"and":[{"key":"age","operator":"equal","value":1e-400}]},"values":[{"key":"a","value":1},{"key":"b","value":12345678901234567}]}';
    expect(pathText(at(u, "1e-400"))).toBe("filter.and[0].value");
    expect(pathText(at(u, "12345678901234567"))).toBe("values[1].value");
  });
  it("skips strings whole, escapes and brackets in them included; decodes keys", () => {
    const t = '{"a\\"]},[":"x,{[","we ird":[[1,2],[3,{"v":[9,99999999999999999]}]]}';
    expect(at(t, "99999999999999999")).toEqual(["we ird", 1, 1, "v", 1]);
    expect(pathText(at(t, "99999999999999999"))).toBe('["we ird"][1][1].v[1]');
  });
  it("a top-level value has the empty path", () => {
    expect(jsonPathAt("12345678901234567", 0)).toEqual([]);
  });
});

describe("a key given twice in one object (review 54a #4)", () => {
  it("is refused, named with the object's path; the same key in two objects is not", () => {
    const twice = parseJsonText('{"records":[{"employee_id":"H1"},{"employee_id":"H2","employee_id":"H3"}]}');
    expect(twice).toEqual({ ok: false, message: expect.stringContaining('records[1] gives "employee_id" twice') });
    expect(parseJsonText('{"a":1,"a":2}')).toEqual({ ok: false, message: expect.stringMatching(/^The body gives "a" twice/) });
    expect(parseJsonText('{"filter":{"and":[{"key":"city","value":"a","value":"b"}]}}')).toMatchObject({ ok: false, message: expect.stringContaining('filter.and[0] gives "value" twice') });
    expect(parseJsonText('[{"a":1},{"a":2}]')).toEqual({ ok: true, value: [{ a: 1 }, { a: 2 }] });
    expect(parseJsonText('{"a":{"b":1},"b":{"a":2}}')).toMatchObject({ ok: true });
  });
  it("reads keys as JSON does: escapes decoded, quotes and backslashes inside strings skipped", () => {
    expect(repeatedKeyIn('{"a\\nb":1,"a\\u000ab":2}')).toEqual({ path: [], key: "a\nb" });
    expect(repeatedKeyIn('{"x":"\\"a\\":1,\\"a\\":2","y":"\\\\","z":["{\\"q\\":1}"]}')).toBeUndefined();
    expect(repeatedKeyIn('{"x":"\\\\","x2":{"k":1,"k":2}}')).toEqual({ path: ["x2"], key: "k" });
    expect(repeatedKeyIn('{"list":[1,2,{"a":1},{"b":[{"c":1,"c":1}]}]}')).toEqual({ path: ["list", 3, "b", 0], key: "c" });
  });
});
