/** What a password may not be (common-passwords.ts): pure. */
import { describe, expect, it } from "vitest";
import { passwordProblem } from "./common-passwords";

describe("passwordProblem", () => {
  it("refuses the whole email address inside it, however short its name (review 37b #5), and a name of 4 or more letters", () => {
    expect(passwordProblem("eve@example.com123", "eve@example.com")).toBe("A password must not contain your email address.");
    expect(passwordProblem("x SAM@Example.com 1", "sam@example.com")).toBe("A password must not contain your email address.");
    expect(passwordProblem("my name is carla and more", "carla@example.com")).toBe("A password must not contain your email's name.");
    // A short name alone is too common inside a fine password to refuse.
    expect(passwordProblem("seven evenings of rain", "eve@example.com")).toBeUndefined();
  });
  it("refuses short, long, common and one-or-two-character passwords", () => {
    expect(passwordProblem("short")).toMatch(/at least 12/);
    expect(passwordProblem("x".repeat(257))).toMatch(/at most 256/);
    expect(passwordProblem("password1234")).toMatch(/most common/);
    expect(passwordProblem("abababababab")).toMatch(/repeats one or two/);
  });
});
