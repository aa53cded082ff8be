/**
 * Sign-in through OpenID Connect (openid-client): authorization code with PKCE, state and nonce.
 * /auth/oidc/start sends the browser to the provider; /auth/oidc/callback checks what comes back,
 * applies the allowed domains and the claim-to-role mapping, creates the person on first
 * sign-in (viewer unless mapped), and starts a session like a password sign-in does.
 * The pending sign-ins (state → verifier, nonce, next) live 10 minutes in this proxy's memory,
 * bounded: behind several proxies, route /auth/oidc/* with sticky sessions. Each is bound to the
 * browser that started it by a cookie (`binding`), so a callback link made by one person's
 * sign-in signs nobody else in (review 34a #3: login CSRF).
 */
import type { IncomingMessage } from "node:http";
import { timingSafeEqual } from "node:crypto";
import * as client from "openid-client";
import type { PersonRow, TeamStore } from "../store/team-store";
import { normalizeEmail } from "../store/team-store";
import { domainAllowed, type OidcSettings, roleFromClaims } from "./oidc-config";
import { NAME_CONTROL } from "../people/people-admin";

const PENDING_MS = 10 * 60 * 1000;
const MAX_PENDING = 10_000;

/** `email`: who the provider said it was, when a sign-in it answered is refused (counted as a failed sign-in). */
/**
 * `email`: whose sign-in was refused, when the provider said; else `unnamed` says what kind of
 * refusal it was, for the failed sign-in it is counted as (review 54a #3: every one without an
 * email was counted as "no verified email", a forged answer too).
 */
export type OidcOutcome = { ok: true; person: PersonRow; next: string } | { ok: false; status: number; message: string; email?: string; unnamed?: string };

export interface OidcSignIn {
  label: string;
  /** Where to send the browser to sign in, and the value of the cookie that binds the sign-in to it. */
  start(next: string, redirectUri: string): Promise<{ url: string; binding: string }>;
  /** `binding`: the cookie the browser brought back (undefined: none). */
  finish(req: IncomingMessage, currentUrl: URL, binding: string | undefined): Promise<OidcOutcome>;
}

/**
 * A change the provider makes to people here (a person it brings, a role its groups set), recorded
 * in the activity log as the provider's before it is made: throws when it cannot be (nothing is
 * changed then), and the step it gives records how it ended.
 */
export type ProviderChange = (c: { action: "add" | "set-role"; email: string; detail: Record<string, unknown>; address: string }) => Promise<(status: number, message?: string) => Promise<void>>;

export function createOidcSignIn(settings: OidcSettings, store: TeamStore, log?: (line: string) => void, recordChange?: ProviderChange): OidcSignIn {
  /** Makes `change` recorded before and after; false (nothing changed) when the log cannot take it. */
  const recorded = async (c: Parameters<ProviderChange>[0], change: () => Promise<unknown>): Promise<boolean> => {
    let done: Awaited<ReturnType<ProviderChange>> | undefined;
    try {
      done = await recordChange?.(c);
    } catch (e) {
      log?.(`single sign-on: ${c.action} of ${c.email} not made, the activity log cannot be written: ${(e as Error).message}`);
      return false;
    }
    try {
      await change();
    } catch (e) {
      await done?.(500, (e as Error).message);
      throw e;
    }
    await done?.(200);
    return true;
  };
  const unlogged = { ok: false as const, status: 503, message: "Signing in is not possible right now: the activity log cannot be written, so no account is changed. Try again in a moment." };
  let config: Promise<client.Configuration> | undefined;
  const discover = () => {
    config ??= (async () => {
      const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(settings.issuer.hostname);
      // 10 s, not openid-client's 30: a sign-in page waits on it.
      const c = await client.discovery(settings.issuer, settings.clientId, settings.clientSecret, undefined, { timeout: 10, ...(loopback ? { execute: [client.allowInsecureRequests] } : {}) });
      return c;
    })().catch((e) => {
      config = undefined; // try again next time
      throw e;
    });
    return config;
  };
  // Looked up once at start: a wrong issuer is said in the log then, not first at a sign-in.
  discover().catch((e: Error) => {
    const wrong = oidcMisconfigured(e);
    log?.(wrong ? `single sign-on is not set up right: ${wrong}` : `single sign-on: the provider could not be reached at start (${e.message}); tried again at the first sign-in`);
  });
  const pending = new Map<string, { verifier: string; nonce: string; next: string; redirectUri: string; at: number; binding: string }>();
  const sweep = (now: number) => {
    for (const [k, v] of pending) if (now - v.at > PENDING_MS || pending.size > MAX_PENDING) pending.delete(k);
  };

  return {
    label: settings.label,
    async start(next, redirectUri) {
      const c = await discover();
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const binding = client.randomState();
      sweep(Date.now());
      pending.set(state, { verifier, nonce, next, redirectUri, at: Date.now(), binding });
      const url = client
        .buildAuthorizationUrl(c, {
          redirect_uri: redirectUri,
          scope: settings.scopes,
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: "S256",
          state,
          nonce,
        })
        .toString();
      return { url, binding };
    },
    async finish(req, currentUrl, binding) {
      const state = currentUrl.searchParams.get("state") ?? "";
      const p = pending.get(state);
      // Another browser's sign-in (a link someone was sent): refused, and left for the browser that started it.
      if (p && (binding === undefined || !equalText(binding, p.binding))) {
        return { ok: false, status: 400, message: "This sign-in was started in another browser (or this browser did not keep its cookie). Start again from the sign-in page here." };
      }
      pending.delete(state);
      if (!p || Date.now() - p.at > PENDING_MS) return { ok: false, status: 400, message: "This sign-in link is old or was used already. Start again from the sign-in page." };
      if (currentUrl.searchParams.get("error")) {
        return { ok: false, status: 401, message: `The provider did not sign you in: ${currentUrl.searchParams.get("error_description") ?? currentUrl.searchParams.get("error")}.`, unnamed: "(single sign-on, refused by the provider)" };
      }
      let claims: Record<string, unknown>;
      try {
        const c = await discover();
        const callback = new URL(p.redirectUri);
        callback.search = currentUrl.search;
        const tokens = await client.authorizationCodeGrant(c, callback, { pkceCodeVerifier: p.verifier, expectedState: state, expectedNonce: p.nonce });
        claims = (tokens.claims() ?? {}) as Record<string, unknown>;
        // Some providers put email and groups only in userinfo, not in the ID token.
        if ((typeof claims.email !== "string" || claims[settings.roleClaim] === undefined) && tokens.access_token) {
          claims = { ...claims, ...((await client.fetchUserInfo(c, tokens.access_token, String(claims.sub))) as Record<string, unknown>) };
        }
      } catch (e) {
        log?.(`single sign-on failed: ${(e as Error).message}`);
        return { ok: false, ...callbackFailure(e), unnamed: "(single sign-on, an answer that failed its checks)" };
      }
      // Verified only when the provider says so (`true`, or "true" as some send it), or when the
      // operator vouches for a provider that never says (review 34a #1: a missing claim, or
      // "false" as text, signed in as whoever has that email here, admins included).
      const verified = claims.email_verified === true || claims.email_verified === "true" || (settings.trustEmails && claims.email_verified === undefined);
      if (typeof claims.email !== "string" || !verified) {
        const said = typeof claims.email === "string" ? normalizeEmail(claims.email) : undefined;
        return { ok: false, status: 403, message: "Your account at the provider has no verified email address, which Baseboard needs as your login.", email: said, unnamed: "(single sign-on, no email given)" };
      }
      const email = normalizeEmail(claims.email);
      if (!domainAllowed(email, settings.allowedDomains)) {
        return { ok: false, status: 403, message: `${email} is not in a domain allowed to sign in here (${settings.allowedDomains.join(", ")}).`, email };
      }
      const mapped = roleFromClaims(claims, settings);
      let person = await store.getPerson(email);
      const address = req.socket.remoteAddress ?? "";
      if (!person) {
        // The provider's name as one line (a name is no place for control characters, NAME_CONTROL).
        const claimed = typeof claims.name === "string" ? claims.name.replace(new RegExp(NAME_CONTROL.source, "g"), " ").trim() : "";
        const name = claimed ? claimed.slice(0, 200) : email.split("@")[0];
        const role = mapped ?? "viewer";
        // In the log like an admin's add, by the provider (review 53a #1: a person it made an
        // admin left no entry).
        const by = mapped ? "the provider's groups" : "a first sign-in in no mapped group";
        if (!(await recorded({ action: "add", email, detail: { email, name, role, by }, address }, () => store.addPerson({ email, name, role, passwordHash: null, sso: true }, Date.now())))) return unlogged;
        person = await store.getPerson(email);
      } else if (person.disabled) {
        // Refused as it is, changing nothing (review 53a #3: a disabled viewer became a disabled admin).
        return { ok: false, status: 403, message: "An admin has disabled this account.", email };
      } else {
        // The provider's groups are the source of truth for people it maps: a person it made
        // (first signed in here through it) and left in no mapped group is a viewer again, as
        // an unmapped newcomer is (review 30a #1: taken out of the admins' group, they stayed
        // admin). Someone an admin added keeps their role unless a group maps.
        const owned = person.sso && settings.roleMap.size > 0;
        const role = mapped ?? (owned ? "viewer" : undefined);
        if (role && role !== person.role) {
          const from = person.role;
          let changed: PersonRow | undefined;
          // Their other sessions end, as with a role an admin changes (issue 18 item 4).
          const made = await recorded({ action: "set-role", email, detail: { email, role, from, by: "the provider's groups" }, address }, async () => {
            changed = await store.updatePerson(email, { role }, { reason: "access-changed", at: Date.now() });
          });
          if (!made) return unlogged;
          person = changed;
        }
      }
      if (!person) return { ok: false, status: 500, message: "Your account could not be created." };
      if (person.disabled) return { ok: false, status: 403, message: "An admin has disabled this account.", email };
      return { ok: true, person, next: p.next };
    },
  };
}

/**
 * Why finishing a sign-in with the provider failed, told apart as at the start (review 53a #4:
 * each was "ask an admin to check the SSO settings"): the provider not reached (try again), a
 * code too old or used already (start again), or an answer that fails its checks.
 */
export function callbackFailure(e: unknown): { status: number; message: string } {
  if (oidcMisconfigured(e) === undefined) return { status: 502, message: "The single sign-on provider could not be reached to finish signing you in. Try again in a moment, or sign in with a password." };
  if ((e as { error?: unknown }).error === "invalid_grant") return { status: 400, message: "This sign-in took too long, or its answer was used already. Start again from the sign-in page." };
  return { status: 401, message: "The single sign-on answer could not be checked. Try again, or ask an admin to check the SSO settings." };
}

/** Two secrets compared in constant time. */
function equalText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Why a failed discovery is the configuration's fault (an issuer that is no OpenID provider, or
 * names another issuer), in words with what to check; undefined when the provider could not be
 * reached (refused, no such host, no answer in time), which trying again may mend.
 */
export function oidcMisconfigured(e: unknown): string | undefined {
  const err = e as { name?: string; message?: string; code?: string; cause?: { code?: string; name?: string } };
  const code = err.cause?.code ?? err.code ?? "";
  const network = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_SOCKET"];
  if (network.includes(code) || ["TimeoutError", "AbortError"].includes(err.name ?? "") || err.cause?.name === "TimeoutError" || /fetch failed/i.test(err.message ?? "")) return undefined;
  return `BASEBOARD_OIDC_ISSUER does not lead to an OpenID provider's discovery document (/.well-known/openid-configuration): ${err.message ?? String(e)}. Check the issuer URL (it must be the provider's issuer exactly).`;
}
