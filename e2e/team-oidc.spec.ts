/**
 * Single sign-on against a real OpenID provider on loopback (the `oidc-provider` package with
 * its development login and consent pages): authorization code with PKCE, the first sign-in
 * creates the person with the role their `groups` claim maps to, a domain outside the allowed
 * list is refused, and the sign-in page offers the provider.
 */
import type { Server } from "node:http";
import { expect, test } from "@playwright/test";
import Provider from "oidc-provider";
import { signInAs, TEAM_PORT, TEAM_SERVICE_PORT, teamUrl, useTeamStack } from "./testing/team";

// Beside the team stack's ports, never on one of them (E2E_TEAM_SERVICE_PORT may be TEAM_PORT + 1).
const ISSUER_PORT = [TEAM_PORT + 1, TEAM_PORT + 2].find((p) => p !== TEAM_SERVICE_PORT)!;
const issuer = `http://127.0.0.1:${ISSUER_PORT}`;
let server: Server | undefined;
/** Groups the provider gives an account now (default: editors for ed…, none otherwise). */
const groupsOf = new Map<string, string[]>();
const PW = "a long enough passphrase";

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
          // "unverified:<email>" has no email_verified claim, "textfalse:<email>" has it as the text "false".
          const [, how, email] = /^(?:(unverified|textfalse):)?(.*)$/.exec(id)!;
          const verified = how === "unverified" ? {} : { email_verified: how === "textfalse" ? "false" : true };
          return { sub: id, email, ...verified, name: email.split("@")[0], groups: groupsOf.get(id) ?? (id.startsWith("ed") ? ["baseboard-editors"] : []) };
        },
      };
    },
  });
  server = provider.listen(ISSUER_PORT);
  s.people(["add", "root@example.com", "--role", "admin", "--name", "Root Admin"], PW);
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
  // Consent (first time for this account): waited for, not glanced at (a glance before the page
  // had loaded skipped it, and the test stayed on the provider's consent page).
  const consent = page.getByRole("button", { name: "Continue" });
  await expect.poll(async () => !page.url().startsWith(issuer) || (await consent.isVisible().catch(() => false)), { timeout: 15_000 }).toBe(true);
  if (page.url().startsWith(issuer)) await consent.click();
}

test("signs in through the provider, creating the person with the mapped role", async ({ page }) => {
  await ssoSignIn(page, "edna@example.com");
  await expect(page).toHaveURL(`${teamUrl}/records/demo/employees`);
  const me = await page.evaluate(async () => (await fetch("/api/me")).json());
  expect(me).toMatchObject({ email: "edna@example.com", role: "editor", mode: "people" });
  // The person exists in the store now, marked as SSO, with no password.
  const out = stack.people(["list"]);
  expect(out).toMatch(/edna@example.com\tedna\teditor\tsso/);
  // And in the activity log, added by the provider with the role it gave (review 53a #1: no entry).
  const items = await auditAsRoot(page.context().browser()!, "kind=people&limit=50");
  expect(items.find((i) => i.keys?.includes("edna@example.com") && i.detail?.action === "add"), JSON.stringify(items)).toMatchObject({
    actor: expect.stringContaining("single sign-on"),
    outcome: "applied",
    detail: expect.objectContaining({ role: "editor", by: "the provider's groups" }),
  });
});

/** The activity log's items, read by an admin who signs in with a password. */
async function auditAsRoot(browser: import("@playwright/test").Browser, query: string) {
  const root = await browser.newContext();
  const r = await root.newPage();
  await signInAs(r, "root@example.com", PW);
  const items = (await r.evaluate(async (q) => (await (await fetch(`/api/audit?${q}`)).json()).items, query)) as { actor: string; outcome?: string; count?: number; detail?: Record<string, unknown>; keys?: string[] }[];
  await root.close();
  return items;
}

test("a disabled person the provider signs in: refused, their role left as it was, the try counted (review 53a #2, #3)", async ({ browser }) => {
  const first = await browser.newContext();
  await ssoSignIn(await first.newPage(), "dora@example.com");
  await first.close();
  stack.people(["disable", "dora@example.com"]);
  groupsOf.set("dora@example.com", ["baseboard-admins"]);
  const c = await browser.newContext();
  const page = await c.newPage();
  await ssoSignIn(page, "dora@example.com");
  await expect(page.getByRole("alert")).toContainText("An admin has disabled this account.");
  expect(stack.people(["list"])).toMatch(/dora@example.com\tdora\tviewer\tdisabled\tsso/);
  await c.close();
  const failed = await auditAsRoot(browser, `kind=sign-in-failed&actor=${encodeURIComponent("dora@example.com")}`);
  expect(failed[0]).toMatchObject({ actor: "dora@example.com", count: 1 });
  expect(JSON.stringify(failed[0])).toContain("/auth/oidc/callback");
});

test("an answer whose nonce was changed on the way is refused, and counted as such, not as a missing email (review 54a #3)", async ({ browser }) => {
  const c = await browser.newContext();
  const page = await c.newPage();
  // The sign-in request's nonce changed on its way to the provider (in Baseboard's redirect to
  // it: a redirect's next request is not routed), so the ID token carries another.
  await page.route((url) => url.pathname === "/auth/oidc/start", async (route) => {
    const answer = await route.fetch({ maxRedirects: 0 });
    const to = new URL(answer.headers().location);
    to.searchParams.set("nonce", "changed-on-the-way");
    await route.fulfill({ response: answer, headers: { ...answer.headers(), location: to.toString() } });
  });
  await ssoSignIn(page, "nina@example.com");
  await expect(page.getByRole("alert")).toContainText("The single sign-on answer could not be checked.");
  expect(stack.people(["list"])).not.toContain("nina@example.com");
  await c.close();
  const failed = await auditAsRoot(browser, `kind=sign-in-failed&actor=${encodeURIComponent("(single sign-on, an answer that failed its checks)")}`);
  expect(failed[0]).toMatchObject({ count: 1 });
  expect(await auditAsRoot(browser, `kind=sign-in-failed&actor=${encodeURIComponent("(single sign-on, no email given)")}`)).toEqual([]);
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

test("an email the provider does not mark verified (no claim, or the text \"false\") does not sign in as the person who has it here (review 34a #1)", async ({ browser }) => {
  for (const login of ["unverified:root@example.com", "textfalse:root@example.com"]) {
    const c = await browser.newContext();
    const page = await c.newPage();
    await ssoSignIn(page, login);
    await expect(page.getByRole("alert")).toContainText("no verified email address");
    expect(await page.evaluate(async () => (await fetch("/api/me")).status)).toBe(401);
    await c.close();
  }
});

test("a callback link from one browser's sign-in signs nobody in elsewhere; the browser that started it goes on (review 34a #3)", async ({ browser }) => {
  const mine = await browser.newContext();
  const page = await mine.newPage();
  // The browser's binding cookie is set as the sign-in starts; taken away before the provider
  // sends it back, the callback arrives as another browser's would (and the link is on screen).
  let binding: Awaited<ReturnType<typeof mine.cookies>>[number] | undefined;
  page.on("response", async (r) => {
    if (r.url().startsWith(`${teamUrl}/auth/oidc/start`) && !binding) {
      binding = (await mine.cookies()).find((c) => c.name === "bb_oidc");
      await mine.clearCookies({ name: "bb_oidc" });
    }
  });
  await ssoSignIn(page, "mallory@example.com");
  await expect(page.getByRole("alert")).toContainText("started in another browser");
  expect(binding).toBeDefined();
  const link = page.url();
  expect(link).toMatch(/\/auth\/oidc\/callback\?.*state=/);
  const other = await browser.newContext();
  const victim = await other.newPage();
  await victim.goto(link);
  await expect(victim.getByRole("alert")).toContainText("started in another browser");
  expect(await victim.evaluate(async () => (await fetch("/api/me")).status)).toBe(401);
  await other.close();
  // The browser that started it (its cookie back): signed in as itself; the refusals took nothing.
  await mine.addCookies([binding!]);
  await page.goto(link);
  await expect(page).toHaveURL(`${teamUrl}/records/demo/employees`);
  expect(await page.evaluate(async () => (await (await fetch("/api/me")).json()).email)).toBe("mallory@example.com");
  await mine.close();
});

test("the provider's groups rule the people it made: out of every mapped group is a viewer again, with the old sessions ended and the change in Activity", async ({ browser }) => {
  groupsOf.set("adam@example.com", ["baseboard-admins"]);
  const first = await browser.newContext();
  const a = await first.newPage();
  await ssoSignIn(a, "adam@example.com");
  await expect(a).toHaveURL(`${teamUrl}/records/demo/employees`);
  expect(await a.evaluate(async () => (await (await fetch("/api/me")).json()).role)).toBe("admin");

  // Taken out of the admins' group at the provider: the next sign-in makes them a viewer.
  groupsOf.set("adam@example.com", []);
  const second = await browser.newContext();
  const b = await second.newPage();
  await ssoSignIn(b, "adam@example.com");
  await expect(b).toHaveURL(`${teamUrl}/records/demo/employees`);
  expect(await b.evaluate(async () => (await (await fetch("/api/me")).json()).role)).toBe("viewer");
  // The session from when they were admin ended with the change.
  expect(await a.evaluate(async () => (await fetch("/api/me")).status)).toBe(401);

  // Someone an admin added keeps their role when no group maps.
  const third = await browser.newContext();
  const c = await third.newPage();
  await ssoSignIn(c, "root@example.com");
  await expect(c).toHaveURL(`${teamUrl}/records/demo/employees`);
  expect(await c.evaluate(async () => (await (await fetch("/api/me")).json()).role)).toBe("admin");

  // The change is in the activity log, made by the provider.
  const root = await browser.newContext();
  const r = await root.newPage();
  await signInAs(r, "root@example.com", PW);
  const items = (await r.evaluate(async () => (await (await fetch("/api/audit?kind=people&limit=20")).json()).items)) as { actor: string; detail?: Record<string, unknown>; keys?: string[] }[];
  const change = items.find((i) => i.keys?.includes("adam@example.com") && i.detail?.role === "viewer");
  expect(change, JSON.stringify(items)).toMatchObject({ actor: expect.stringContaining("single sign-on"), detail: expect.objectContaining({ from: "admin", role: "viewer" }) });
  for (const ctx of [first, second, third, root]) await ctx.close();
});
