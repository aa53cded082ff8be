import { describe, expect, it } from "vitest";
import type { FieldInfo } from "../../../shared/records";
import { guessJoinKeys, joinableTargets, possessive } from "./join-form.utils";

const f = (...keys: string[]): FieldInfo[] => keys.map((key) => ({ key, type: "text" }) as FieldInfo);

describe("possessive", () => {
  it("adds an apostrophe after a final s, ’s otherwise", () => {
    expect(possessive("departments")).toBe("departments’");
    expect(possessive("catalog")).toBe("catalog’s");
    expect(possessive("STATUS")).toBe("STATUS’");
  });
});

describe("guessJoinKeys", () => {
  it("joins on the Field named like the target's primary key", () => {
    expect(guessJoinKeys({ baseFields: f("employee_id", "name", "department"), targetFields: f("department", "budget"), targetPk: "department", chosenBase: "" })).toEqual({
      tableKey: "department",
      targetKey: "department",
    });
  });
  it("the target's Field follows the chosen base Field by name, known Fields or not", () => {
    expect(guessJoinKeys({ baseFields: f("id", "country"), targetFields: f("code", "country"), targetPk: "code", chosenBase: "country" }).targetKey).toBe("country");
    expect(guessJoinKeys({ baseFields: f("id", "country"), targetFields: undefined, targetPk: "code", chosenBase: "country" }).targetKey).toBe("country");
  });
  it("falls back to the target's primary key, then its first Field", () => {
    expect(guessJoinKeys({ baseFields: f("id", "x"), targetFields: f("a", "code"), targetPk: "code", chosenBase: "x" }).targetKey).toBe("code");
    expect(guessJoinKeys({ baseFields: f("id"), targetFields: f("a", "b"), targetPk: undefined, chosenBase: "" })).toEqual({ tableKey: "id", targetKey: "a" });
    expect(guessJoinKeys({ baseFields: f("id"), targetFields: undefined, targetPk: "code", chosenBase: "" })).toEqual({ tableKey: "id", targetKey: "code" });
  });
});

describe("only Fields whose values can be equal are offered", () => {
  const typed = (key: string, type: FieldInfo["type"]) => ({ key, type }) as FieldInfo;
  it("a number pairs with numbers; text with text, image and attachment Fields; json with none", () => {
    const target = [typed("department", "text"), typed("budget", "number"), typed("logo", "image"), typed("meta", "json")];
    expect(joinableTargets(typed("age", "number"), target).map((f) => f.key)).toEqual(["budget"]);
    expect(joinableTargets(typed("dept", "text"), target).map((f) => f.key)).toEqual(["department", "logo"]);
    expect(joinableTargets(typed("extra", "json"), target)).toEqual([]);
  });
  it("the guess skips a Field of the same name but another type", () => {
    const base = [typed("id", "text"), typed("code", "number")];
    expect(guessJoinKeys({ baseFields: base, targetFields: [typed("code", "text"), typed("n", "number")], targetPk: "code", chosenBase: "code" }).targetKey).toBe("n");
  });
});
