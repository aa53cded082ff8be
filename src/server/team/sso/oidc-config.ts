/**
 * Single sign-on settings from the environment, read once at start-up. Pure: parsing only.
 *
 *   BASEBOARD_OIDC_ISSUER          the provider's issuer URL (discovery at /.well-known/openid-configuration)
 *   BASEBOARD_OIDC_CLIENT_ID       this app's client id at the provider
 *   BASEBOARD_OIDC_CLIENT_SECRET   its secret (confidential client; PKCE is used as well)
 *   BASEBOARD_OIDC_ALLOWED_DOMAINS comma-separated email domains that may sign in (empty: any)
 *   BASEBOARD_OIDC_ROLE_CLAIM      the claim that carries groups or roles (default: groups)
 *   BASEBOARD_OIDC_ROLE_MAP        claim value=role pairs, e.g. "baseboard-admins=admin,baseboard-editors=editor"
 *   BASEBOARD_OIDC_LABEL           the sign-in button's name (default: the issuer's host)
 *   BASEBOARD_OIDC_SCOPES          extra scopes besides "openid email profile" (e.g. "groups")
 *   BASEBOARD_OIDC_TRUST_EMAILS    "true": take the email claim as verified when the provider sends no
 *                                  email_verified (Entra ID); only with ALLOWED_DOMAINS, domains you own
 */
import { ROLES, type Role } from "../contract";

export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret?: string;
  allowedDomains: string[];
  roleClaim: string;
  roleMap: Map<string, Role>;
  label: string;
  scopes: string;
  /** The email claim counts as verified without email_verified (a provider that never sends it). */
  trustEmails: boolean;
}

export function parseOidcSettings(env: NodeJS.ProcessEnv): OidcSettings | undefined {
  const raw = env.BASEBOARD_OIDC_ISSUER?.trim();
  if (!raw) return undefined;
  let issuer: URL;
  try {
    issuer = new URL(raw);
  } catch {
    throw new Error(`BASEBOARD_OIDC_ISSUER "${raw}" is not a URL: use the provider's issuer, e.g. https://accounts.google.com.`);
  }
  const clientId = env.BASEBOARD_OIDC_CLIENT_ID?.trim();
  if (!clientId) throw new Error("BASEBOARD_OIDC_ISSUER is set but BASEBOARD_OIDC_CLIENT_ID is not: register Baseboard at the provider and set its client id.");
  const roleMap = new Map<string, Role>();
  for (const pair of (env.BASEBOARD_OIDC_ROLE_MAP ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const eq = pair.lastIndexOf("=");
    const role = pair.slice(eq + 1).trim();
    if (eq <= 0 || !(ROLES as readonly string[]).includes(role)) {
      throw new Error(`BASEBOARD_OIDC_ROLE_MAP: "${pair}" is not value=role with a role of ${ROLES.join(", ")}.`);
    }
    roleMap.set(pair.slice(0, eq).trim(), role as Role);
  }
  const trustEmails = /^(1|true|yes)$/i.test(env.BASEBOARD_OIDC_TRUST_EMAILS?.trim() ?? "");
  if (trustEmails && !(env.BASEBOARD_OIDC_ALLOWED_DOMAINS ?? "").trim()) {
    // Any email a provider account carries would then sign in as whoever has it here.
    throw new Error("BASEBOARD_OIDC_TRUST_EMAILS needs BASEBOARD_OIDC_ALLOWED_DOMAINS: name the domains whose emails your provider vouches for.");
  }
  return {
    issuer,
    clientId,
    clientSecret: env.BASEBOARD_OIDC_CLIENT_SECRET || undefined,
    allowedDomains: (env.BASEBOARD_OIDC_ALLOWED_DOMAINS ?? "").split(",").map((d) => d.trim().toLowerCase().replace(/^@/, "")).filter(Boolean),
    roleClaim: env.BASEBOARD_OIDC_ROLE_CLAIM?.trim() || "groups",
    roleMap,
    label: env.BASEBOARD_OIDC_LABEL?.trim() || issuer.host,
    scopes: ["openid", "email", "profile", ...(env.BASEBOARD_OIDC_SCOPES ?? "").split(/[\s,]+/).filter(Boolean)].join(" "),
    trustEmails,
  };
}

/** The highest role the claim maps to (a person in two mapped groups gets the larger role), or undefined. */
export function roleFromClaims(claims: Record<string, unknown>, s: Pick<OidcSettings, "roleClaim" | "roleMap">): Role | undefined {
  const v = claims[s.roleClaim];
  const values = Array.isArray(v) ? v : typeof v === "string" ? v.split(/[\s,]+/) : [];
  let best: Role | undefined;
  for (const x of values) {
    const r = typeof x === "string" ? s.roleMap.get(x) : undefined;
    if (r && (!best || ROLES.indexOf(r) > ROLES.indexOf(best))) best = r;
  }
  return best;
}

export function domainAllowed(email: string, allowed: string[]): boolean {
  if (allowed.length === 0) return true;
  const domain = email.split("@").pop()?.toLowerCase() ?? "";
  return allowed.includes(domain);
}
