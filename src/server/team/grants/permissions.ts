/**
 * The permission table, pure: what a role allows, and how a per-resource grant overrides it.
 * Tested as one table (permissions.test.ts); the proxy asks it before anything reaches the
 * upstream, and /api/me hands its answers to the app, which decides nothing itself.
 *
 * - viewer: read (query, read files, signed URLs)
 * - editor: also write (update, paste, import, insert, upload, move/copy files)
 * - admin:  also delete (files and Records), create tables (an import into a table that does
 *           not exist: it would have no grants yet, so every viewer would see it), manage
 *           people, read the whole activity log
 * A grant on one table or bucket sets the level there (none | viewer | editor) whatever the
 * role; deleting still needs the admin role on top of editor level.
 */
import type { Action, Actor, Decision, GrantLevel, Resource } from "../contract";

const RANK: Record<GrantLevel, number> = { none: 0, viewer: 1, editor: 2 };

/** The level a person holds on one table or bucket: their grant there, else what their role gives. */
export function levelOn(actor: Pick<Actor, "role" | "grants">, resource: Resource): GrantLevel {
  const grant = actor.grants.find((g) => g.resource === resource);
  if (grant) return grant.level;
  return actor.role === "viewer" ? "viewer" : "editor";
}

const describe = (resource: Resource) => (resource.startsWith("table:") ? `table ${resource.slice(6)}` : `bucket ${resource.slice(7)}`);

function roleText(actor: Pick<Actor, "role" | "grants">, resource: Resource): string {
  const grant = actor.grants.find((g) => g.resource === resource);
  return grant ? `your grant on ${describe(resource)} is ${grant.level}` : `your role is ${actor.role}`;
}

export function decide(actor: Pick<Actor, "role" | "grants">, action: Action, resource?: Resource): Decision {
  if (action === "manage-people") {
    return actor.role === "admin" ? { allowed: true } : { allowed: false, message: `Managing people needs the admin role; your role is ${actor.role}.` };
  }
  if (action === "read-activity") {
    return actor.role === "admin" ? { allowed: true } : { allowed: false, message: `Reading the activity log needs the admin role; your role is ${actor.role}.` };
  }
  if (!resource) return { allowed: false, message: "This request names no table or bucket." };
  if (action === "create-table") {
    return actor.role === "admin"
      ? { allowed: true }
      : { allowed: false, message: `There is no ${describe(resource)}, and creating a table by import needs the admin role; your role is ${actor.role}. Ask an admin to create it, or import into an existing table.` };
  }
  const level = levelOn(actor, resource);
  const what = describe(resource);
  if (action === "read") {
    return RANK[level] >= RANK.viewer ? { allowed: true } : { allowed: false, message: `You have no access to ${what} (${roleText(actor, resource)}).` };
  }
  if (action === "write") {
    return RANK[level] >= RANK.editor
      ? { allowed: true }
      : { allowed: false, message: `Changing ${what} needs editor access; ${roleText(actor, resource)}, which can only read.`.replace("none, which can only read", "none") };
  }
  // delete
  if (RANK[level] < RANK.editor) return { allowed: false, message: `Deleting in ${what} needs editor access and the admin role; ${roleText(actor, resource)}.` };
  return actor.role === "admin" ? { allowed: true } : { allowed: false, message: `Deleting in ${what} needs the admin role; your role is ${actor.role}.` };
}

export const mayRead = (actor: Pick<Actor, "role" | "grants">, resource: Resource) => decide(actor, "read", resource).allowed;

/** What /api/me tells the app about each table and bucket it knows of. */
export function mayOn(actor: Pick<Actor, "role" | "grants">, resource: Resource) {
  return {
    read: decide(actor, "read", resource).allowed,
    write: decide(actor, "write", resource).allowed,
    delete: decide(actor, "delete", resource).allowed,
  };
}
