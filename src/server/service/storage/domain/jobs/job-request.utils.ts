/**
 * A storage job request (issue 22.2), checked and resolved to what it touches. Pure.
 * `from` is a key, or a folder when it ends in "/"; a folder's objects go under `to` keeping
 * their path below `from` (a rename of the folder). `to` "" is the bucket's top level.
 */
import { type Failure, type Result, fail, ok } from "../../../../../shared/errors";
import { MAX_KEY_BYTES, utf8Length, validateObjectKey } from "../../../../../shared/storage";

export type JobAction = "move" | "copy" | "delete";
export const JOB_ACTIONS: readonly JobAction[] = ["move", "copy", "delete"];

export interface JobRequest {
  action: JobAction;
  from: string;
  /** "" for delete. */
  to: string;
  overwrite: boolean;
}

/** The keys a job covers: one key, or every key in [lo, hi). */
export type Selection = { kind: "key"; key: string } | { kind: "folder"; lo: string; hi: string };

const folderProblem = (path: string, name: string): Failure | undefined => {
  const checked = validateObjectKey(path.slice(0, -1));
  return checked.ok ? undefined : { code: "validation_error", message: `${name} "${path}": ${checked.error.message}` };
};

export function parseJobRequest(body: unknown): Result<JobRequest> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return fail("validation_error", 'Send a JSON object such as {"action":"move","from":"docs/","to":"archive/docs/"}.');
  const b = body as Record<string, unknown>;
  const known = new Set(["action", "from", "to", "overwrite"]);
  const extra = Object.keys(b).find((k) => !known.has(k));
  if (extra) return fail("validation_error", `Unknown field "${extra}": a job takes action, from, to and overwrite.`);
  if (!JOB_ACTIONS.includes(b.action as JobAction)) return fail("validation_error", 'action must be "move", "copy" or "delete".');
  const action = b.action as JobAction;
  if (typeof b.from !== "string" || b.from === "") return fail("validation_error", 'from must be a key ("docs/a.pdf") or a folder ending in / ("docs/").');
  if (b.overwrite !== undefined && typeof b.overwrite !== "boolean") return fail("validation_error", "overwrite must be true or false.");
  const from = b.from;
  const folder = from.endsWith("/");
  const fromProblem = folder ? folderProblem(from, "from") : validateObjectKey(from).ok ? undefined : (validateObjectKey(from) as { error: Failure }).error;
  if (fromProblem) return { ok: false, error: fromProblem };
  const overwrite = b.overwrite === true;
  if (action === "delete") {
    if (b.to !== undefined && b.to !== "") return fail("validation_error", "A delete job takes no to.");
    return ok({ action, from, to: "", overwrite });
  }
  if (typeof b.to !== "string") return fail("validation_error", `A ${action} job needs to: ${folder ? 'a folder ending in / ("archive/"), or "" for the top level' : 'a key ("docs/b.pdf")'}.`);
  const to = b.to;
  if (folder) {
    if (to !== "" && !to.endsWith("/")) return fail("validation_error", `from is a folder, so to must be one too: end it with / ("${to}/").`);
    const toProblem = to === "" ? undefined : folderProblem(to, "to");
    if (toProblem) return { ok: false, error: toProblem };
    if (to === from) return fail("validation_error", "from and to are the same folder: nothing would change.");
    if (to.startsWith(from)) return fail("validation_error", `"${to}" is inside "${from}": a folder cannot be ${action === "move" ? "moved" : "copied"} into itself.`);
    // Into a parent, a destination may be a source not yet done: replacing it would lose it.
    if (overwrite && from.startsWith(to)) return fail("validation_error", `"${to}" holds "${from}": overwrite is refused when ${action === "move" ? "moving" : "copying"} a folder into a parent; move without it.`);
  } else {
    if (to.endsWith("/")) return fail("validation_error", `from is a key, so to must be a key too (such as "${to}${from.split("/").pop()}").`);
    const checked = validateObjectKey(to);
    if (!checked.ok) return { ok: false, error: { code: "validation_error", message: `to: ${checked.error.message}` } };
    if (to === from) return fail("validation_error", "from and to are the same key: nothing would change.");
  }
  return ok({ action, from, to, overwrite });
}

/** The smallest string above every string that starts with `prefix` (prefix + anything). */
export function prefixEnd(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/** Every key under a folder; "" is the whole bucket (the top level). */
export function folderSelection(folder: string): Selection {
  return { kind: "folder", lo: folder, hi: folder === "" ? String.fromCodePoint(0x10ffff) : prefixEnd(folder) };
}

export function selectionOf(from: string): Selection {
  return from.endsWith("/") ? { kind: "folder", lo: from, hi: prefixEnd(from) } : { kind: "key", key: from };
}

/** Where a key under `from` lands. */
export const destination = (key: string, from: string, to: string) => (from.endsWith("/") ? to + key.slice(from.length) : to);

/**
 * Why a move or copy of a folder is refused when it would give `key` a name longer than keys may
 * be (review 46a #1: the job made it, and no endpoint could read, sign, delete or move it after).
 */
export function destinationTooLong(j: { action: JobAction; from: string; to: string }, key: string): string | undefined {
  const landed = destination(key, j.from, j.to);
  const bytes = utf8Length(landed);
  if (bytes <= MAX_KEY_BYTES) return undefined;
  const shown = landed.length > 80 ? `${landed.slice(0, 60)}…${landed.slice(-12)}` : landed;
  const verb = j.action === "move" ? "Moving" : "Copying";
  return `${verb} "${j.from}" to "${j.to}" would make "${shown}" ${bytes.toLocaleString("en-US")} bytes long; keys are at most ${MAX_KEY_BYTES.toLocaleString("en-US")} bytes. Choose a shorter destination, or shorten the longest names first.`;
}

/** The keys a job reads or writes: its source, and for a move or copy its destination (a key, or a folder ending in "/"). */
function regions(j: { action: JobAction; from: string; to: string }): string[] {
  return j.action === "delete" ? [j.from] : [j.from, j.to];
}
/** Whether two regions share a key: equal keys, or one a folder ("" is the top level) holding the other. */
const meet = (a: string, b: string) => a === b || (a === "" || a.endsWith("/") ? b.startsWith(a) : false) || (b === "" || b.endsWith("/") ? a.startsWith(b) : false);

/**
 * Whether two jobs of one bucket would touch the same keys: run at once, one moved nothing and
 * still ended "done", another deleted what the first had just moved in, and the trail named
 * files that were no longer there (review 29a #6). Two deletes of one folder overlap too.
 */
export function jobsOverlap(a: { action: JobAction; from: string; to: string }, b: { action: JobAction; from: string; to: string }): boolean {
  return regions(a).some((x) => regions(b).some((y) => meet(x, y)));
}
