/**
 * Turns a proxied request (its route's declared access, the table or bucket its path names,
 * and for some its JSON body) into permission questions, and answers them from the table.
 * Pure. A query that joins another table needs read access to that table too; a storage job
 * that deletes, or moves onto files and so removes their versions, needs the delete right; the alternate query path (1a), whose table only the
 * upstream's key knows, is open only to people with no table hidden from them.
 */
import type { Access } from "../../proxy/routes";
import type { Actor, Decision, Resource } from "../contract";
import { decide } from "./permissions";

export interface RouteAccess {
  access: Access;
  /** `db/slug` for table routes, the bucket for bucket routes. */
  target?: string;
}

const asObject = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** Said when a move with overwrite is refused for the role: what it would remove. */
export const REPLACE_BY_MOVE = "A move that replaces files removes every version of them, as deleting does.";

export function hidesAnyTable(actor: Pick<Actor, "grants">): boolean {
  return actor.grants.some((g) => g.resource.startsWith("table:") && g.level === "none");
}

/** `body`: the request's JSON body as read (shared/json-text.ts), for the checks that need it. */
export function checkRequest(actor: Actor, route: RouteAccess, body?: unknown): Decision {
  const { access, target } = route;
  switch (access.on) {
    case "signed":
    case "meta":
      return { allowed: true };
    case "data-api":
      return hidesAnyTable(actor)
        ? { allowed: false, message: "The alternate query path (/v0/data-api/record/query) cannot be checked per table, and some tables are hidden from you: use /v0/record/{database_id}/{table_slug}/query." }
        : { allowed: true };
    case "job": {
      const job = asObject(body);
      if (job?.action === "delete") return decide(actor, "delete", `bucket:${target}` as Resource);
      // A move that replaces what is at its destination removes every version of it: a delete.
      // (A copy that replaces adds a version, keeping the others: a write.)
      if (job?.action === "move" && job.overwrite === true) {
        const d = decide(actor, "delete", `bucket:${target}` as Resource);
        return d.allowed ? d : { allowed: false, message: `${REPLACE_BY_MOVE} ${d.message} Move to a path that is free, or copy with overwrite (which keeps the replaced files' versions).` };
      }
      return decide(actor, "write", `bucket:${target}` as Resource);
    }
    case "bucket":
      return decide(actor, access.action, `bucket:${target}` as Resource);
    case "table": {
      const own = decide(actor, access.action, `table:${target}` as Resource);
      if (!own.allowed || access.action !== "read") return own;
      const joins = asObject(body)?.join;
      if (!Array.isArray(joins)) return own;
      const db = (target ?? "").split("/")[0];
      for (const j of joins) {
        const other = (j as { targetTable?: unknown })?.targetTable;
        if (typeof other !== "string") continue;
        const d = decide(actor, "read", `table:${db}/${other}` as Resource);
        if (!d.allowed) return d;
      }
      return own;
    }
  }
}

/**
 * An import into a table the upstream's catalog lacks creates it: for admins only. `tables`: the
 * catalog's `db/slug` names, undefined when it could not be read (then refused: whether the
 * import would create a table cannot be told).
 */
export function checkTableCreation(actor: Actor, target: string, tables: ReadonlySet<string> | undefined): Decision & { status?: number } {
  if (actor.role === "admin" || tables?.has(target)) return { allowed: true };
  if (!tables) return { allowed: false, status: 503, message: "Baseboard could not read the service's list of tables, so it cannot tell whether this import would create a table (which needs the admin role). Try again in a moment." };
  return decide(actor, "create-table", `table:${target}` as Resource);
}
