/**
 * The types every part of the team layer shares (README.md beside this file): who is asking
 * (Actor), what they hold (Role, Grant) and what the proxy decided (Decision). Plain data, so
 * the permission table stays a pure function and the app can read the same shapes from /api/me.
 */

export const ROLES = ["viewer", "editor", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const GRANT_LEVELS = ["none", "viewer", "editor"] as const;
export type GrantLevel = (typeof GRANT_LEVELS)[number];

/** `table:<database_id>/<table_slug>` or `bucket:<name>`. */
export type Resource = `table:${string}/${string}` | `bucket:${string}`;

export interface Grant {
  resource: Resource;
  level: GrantLevel;
}

/** people: a signed-in person; shared-password: BASEBOARD_PASSWORD; single-user: loopback, nothing set up. */
export type ActorKind = "person" | "shared-password" | "single-user";
export type IdentityMode = "people" | "password" | "single-user";

export interface Actor {
  kind: ActorKind;
  /** The login (for the two shared modes a fixed name: "shared-password", "single-user"). */
  email: string;
  name: string;
  role: Role;
  grants: Grant[];
  /** The session's id (its hash's prefix), for people. */
  sessionId?: string;
}

/** What a request does to its resource. delete: files and Records; the last two are not per resource. */
export type Action = "read" | "write" | "delete" | "create-table" | "manage-people" | "read-activity";

export type Decision = { allowed: true } | { allowed: false; message: string };

const RESOURCE_SHAPE = /^(table:[^/\s]+\/[^/\s]+|bucket:[^/\s]+)$/;

export function isResource(s: string): s is Resource {
  return RESOURCE_SHAPE.test(s) && s.length <= 300;
}

/** One key per person however many sessions they hold (undefined for the single user and the shared password, who are everyone). */
export const personKey = (a: Pick<Actor, "kind" | "email">): string | undefined => (a.kind === "person" ? `person:${a.email.toLowerCase()}` : undefined);

export const SINGLE_USER: Actor = { kind: "single-user", email: "single-user", name: "Single user", role: "admin", grants: [] };
export const SHARED_PASSWORD: Actor = { kind: "shared-password", email: "shared-password", name: "Shared password", role: "admin", grants: [] };
