import { describe, expect, it } from "vitest";
import { distinctInitials } from "./presence.utils";

describe("distinctInitials", () => {
  it("keeps two letters where they tell people apart", () => {
    expect(distinctInitials(["Ada Admin", "Eve Editor", "vic@example.com"])).toEqual(["AA", "EE", "VE"]);
  });
  it("lengthens the ones that would be the same", () => {
    expect(distinctInitials(["Ed Editor", "Eve Editor", "Ada Admin"])).toEqual(["EdE", "EvE", "AA"]);
  });
  it("numbers the ones still the same", () => {
    expect(distinctInitials(["Ann Lee", "Ann Lee", "Bo"])).toEqual(["AnL1", "AnL2", "B"]);
  });
});
