/**
 * Single sign-on against a real OpenID provider on loopback (the `oidc-provider` package with
 * its development login and consent pages): authorization code with PKCE, the first sign-in
 * creates the person with the role their `groups` claim maps to, a domain outside the allowed
 * list is refused, and the sign-in page offers the provider.
 */
import type { Server } from "node:http";
import { expect, test } from "@playwright/test";
import Provider from "oidc-provider";
import { TEAM_PORT, TEAM_SERVICE_PORT, teamUrl, useTeamStack } from "./testing/team";

// Beside the team stack's ports, never on one of them (E2E_TEAM_SERVICE_PORT may be TEAM_PORT + 1).
const ISSUER_PORT = [TEAM_PORT + 1, TEAM_PORT + 2].find((p) => p !== TEAM_SERVICE_PORT)!;
const issuer = `http://127.0.0.1:${ISSUER_PORT}`;
let server: Server | undefined;

const stack = useTeamStack(async (s) => {
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: "baseboard",
        client_secret: "a-test-client-secret-of-some-length",
        redirect_uris: [`${teamUrl}/auth/oidc/callback`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
    scopes: ["openid", "email", "profile", "groups"],
    pkce: { required: () => true },
    // The login name typed on the provider's dev page is the account: its email and groups follow from it.
    async findAccount(_ctx: unknown, id: string) {
      return {
        accountId: id,
        async claims() {
          return { sub: id, email: id, email_verified: true, name: id.split("@")[0], groups: id.startsWith("ed") ? ["baseboard-editors"] : [] };
        },
      };
    },
  });
  server = provider.listen(ISSUER_PORT);
  s.env = {
    BASEBOARD_OIDC_ISSUER: issuer,
    BASEBOARD_OIDC_CLIENT_ID: "baseboard",
    BASEBOARD_OIDC_CLIENT_SECRET: "a-test-client-secret-of-some-length",
    BASEBOARD_OIDC_ALLOWED_DOMAINS: "example.com",
    BASEBOARD_OIDC_ROLE_MAP: "baseboard-editors=editor,baseboard-admins=admin",
    BASEBOARD_OIDC_SCOPES: "groups",
    BASEBOARD_OIDC_LABEL: "Example SSO",
  };
});
test.afterAll(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

async function ssoSignIn(page: import("@playwright/test").Page, login: string) {
  await page.goto(`${teamUrl}/records/demo/employees`);
  await expect(page).toHaveURL(/\/login/);
  await page.getByRole("link", { name: "Sign in with Example SSO" }).click();
  await expect(page).toHaveURL(new RegExp(`^${issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("anything");
  await page.locator('button[type="submit"]').click();
  // Consent (first time for this client).
  const consent = page.locator('button[type="submit"]');
  if (await consent.isVisible().catch(() => false)) await consent.click();
}

test("signs in through the provider, creating the person with the mapped role", async ({ page }) => {
  await ssoSignIn(page, "edna@example.com");
  await expect(page).toHaveURL(`${teamUrl}/records/demo/employees`);
  const me = await page.evaluate(async () => (await fetch("/api/me")).json());
  expect(me).toMatchObject({ email: "edna@example.com", role: "editor", mode: "people" });
  // The person exists in the store now, marked as SSO, with no password.
  const out = stack.people(["list"]);
  expect(out).toMatch(/edna@example.com\tedna\teditor\tsso/);
});

test("an unmapped person is a viewer; a domain outside the allowed list is refused", async ({ browser }) => {
  const a = await browser.newContext();
  const page = await a.newPage();
  await ssoSignIn(page, "vera@example.com");
  await expect(page).toHaveURL(`${teamUrl}/records/demo/employees`);
  expect(await page.evaluate(async () => (await (await fetch("/api/me")).json()).role)).toBe("viewer");
  await a.close();

  const b = await browser.newContext();
  const other = await b.newPage();
  await ssoSignIn(other, "mallory@evil.test");
  await expect(other.getByRole("alert")).toContainText("not in a domain allowed");
  expect(await other.evaluate(async () => (await fetch("/api/me")).status)).toBe(401);
  await b.close();
});
