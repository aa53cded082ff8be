import { describe, expect, it } from "vitest";
import { parseOidcSettings } from "./oidc-config";

const base = { BASEBOARD_OIDC_ISSUER: "https://login.example.com/tenant/v2.0", BASEBOARD_OIDC_CLIENT_ID: "baseboard" };

describe("BASEBOARD_OIDC_TRUST_EMAILS", () => {
  it("is off unless set; set, it needs the allowed domains it vouches for", () => {
    expect(parseOidcSettings(base)?.trustEmails).toBe(false);
    expect(() => parseOidcSettings({ ...base, BASEBOARD_OIDC_TRUST_EMAILS: "true" })).toThrow(/needs BASEBOARD_OIDC_ALLOWED_DOMAINS/);
    expect(parseOidcSettings({ ...base, BASEBOARD_OIDC_TRUST_EMAILS: "true", BASEBOARD_OIDC_ALLOWED_DOMAINS: "example.com" })?.trustEmails).toBe(true);
    expect(parseOidcSettings({ ...base, BASEBOARD_OIDC_TRUST_EMAILS: "no", BASEBOARD_OIDC_ALLOWED_DOMAINS: "example.com" })?.trustEmails).toBe(false);
  });
});
