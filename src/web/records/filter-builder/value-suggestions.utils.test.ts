import { describe, expect, it } from "vitest";
import { suggestFromRows } from "./value-suggestions.utils";

describe("suggestFromRows", () => {
  const pages = [
    [{ d: "Sales" }, { d: "Legal" }, { d: "Sales" }, { d: null }],
    [{ d: "Support" }, { d: "sales ops" }, { d: { x: 1 } }],
  ];
  it("most frequent first, nulls and objects left out", () => {
    expect(suggestFromRows(pages, "d", "")).toEqual(["Sales", "Legal", "sales ops", "Support"]);
  });
  it("by prefix, case-insensitive, within the limit", () => {
    expect(suggestFromRows(pages, "d", "SA", 1)).toEqual(["Sales"]);
  });
});
