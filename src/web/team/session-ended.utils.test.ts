import { describe, expect, it } from "vitest";
import { endedBecause, isSignInRequired, signInAgainUrl } from "./session-ended.utils";

describe("session ended", () => {
  it("is the proxy's 401 'sign in first' alone", () => {
    expect(isSignInRequired(401, { error: "auth_error", subCode: 10 })).toBe(true);
    // The upstream refusing the proxy's key, a refusal, a network failure: not the person's session.
    expect(isSignInRequired(401, { error: "auth_error", subCode: 4 })).toBe(false);
    expect(isSignInRequired(401, { error: "http_error", subCode: 0 })).toBe(false);
    expect(isSignInRequired(403, { error: "forbidden", subCode: 10 })).toBe(false);
    expect(isSignInRequired(0, { error: "network_error", subCode: 0 })).toBe(false);
  });

  it("goes to the sign-in page with the view to come back to, never from the sign-in pages", () => {
    expect(signInAgainUrl("/records/demo/employees", "?page=2&record=E00012")).toBe("/login?next=%2Frecords%2Fdemo%2Femployees%3Fpage%3D2%26record%3DE00012&reason=ended");
    expect(signInAgainUrl("/", "")).toBe("/login?next=%2F&reason=ended");
    for (const p of ["/login", "/logout", "/invite/abc", "/auth/oidc/callback"]) expect(signInAgainUrl(p, "?next=%2F")).toBeUndefined();
  });

  it("shows why, when the proxy kept it, without the pointer meant for scripts", () => {
    expect(endedBecause("Your session ended: an admin reset your password at 2026-11-27 20:15 UTC, so the old one no longer works. Ask them for the link to set a new one. (open /login)")).toBe(
      "Your session ended: an admin reset your password at 2026-11-27 20:15 UTC, so the old one no longer works. Ask them for the link to set a new one.",
    );
    expect(endedBecause("Sign in to Baseboard first (open /login).")).toBeUndefined();
  });
});
