import { describe, expect, it } from "vitest";
import { jsonPathAt, pathText } from "./json-text";

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
