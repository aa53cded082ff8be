/**
 * A recorded, applied change → the live event others receive. Pure: the proxy calls it with
 * what the audit trail just wrote (the same before-images give the changed Records).
 */
import type { AppliedChange } from "../audit/auditor";
import { changesSize, expandChanges } from "../audit/record-changes";
import type { Actor, Resource } from "../contract";
import { EVENT_RECORDS_MAX, type NewChangeEvent, resourceParts } from "./live-event";

type Row = Record<string, unknown>;

export function changeEventOf(c: AppliedChange, actor: Pick<Actor, "email" | "name">, tab: string | undefined, at = new Date()): NewChangeEvent | undefined {
  if (!c.resource) return undefined;
  const resource = c.resource as Resource;
  const base = {
    at: at.toISOString(),
    resource,
    ...resourceParts(resource),
    actor: { email: actor.email, name: actor.name },
    origin: "baseboard" as const,
    ...(tab ? { tab } : {}),
  };
  const count = typeof c.out.count === "number" ? c.out.count : undefined;
  switch (c.kind) {
    case "update": {
      const values = (c.detail.values as { key: string }[] | undefined) ?? [];
      const fields = values.map((v) => v.key);
      if (count === 0) return undefined; // matched nothing: nothing changed
      // Without before-images (no primary key known, or over the limit) nobody knows which Records:
      // refetch. Over EVENT_RECORDS_MAX matched, too, without working out which of them changed.
      const changes = changesSize(c.out.changes) > EVENT_RECORDS_MAX ? undefined : expandChanges(c.out.changes);
      if (!changes || c.detail.beforeImagesOmitted || changes.length > EVENT_RECORDS_MAX) return { ...base, kind: "update", fields, count, truncated: true };
      if (!changes.length) return undefined; // every Record already held these values
      return { ...base, kind: "update", fields, count, records: changes.map((x) => ({ key: x.key, values: x.after })) };
    }
    case "insert": {
      const records = (c.detail.records as Row[] | undefined) ?? [];
      // None added (an empty list): nothing changed (review 54a #5: the others' tables were read again).
      if ((count ?? records.length) === 0) return undefined;
      if (records.length > EVENT_RECORDS_MAX) return { ...base, kind: "insert", count: count ?? records.length, truncated: true };
      return { ...base, kind: "insert", count: count ?? records.length, records: records.map((r, i) => ({ key: c.keys[i], values: r })) };
    }
    case "delete-records":
      if (count === 0) return undefined;
      if (c.keys.length > EVENT_RECORDS_MAX || c.detail.beforeImagesOmitted) return { ...base, kind: "delete-records", count, truncated: true };
      return { ...base, kind: "delete-records", count, records: c.keys.map((key) => ({ key })) };
    case "import":
      // Nothing added and nothing changed (a file of the Records as they are, or of none).
      if (count === 0 || (c.out.inserted === 0 && c.out.changed === 0)) return undefined;
      return { ...base, kind: "import", count, truncated: true };
    case "upload":
    case "delete-file":
    case "storage-job": {
      // A resumable upload completed again (its answer lost, asked once more) wrote nothing new.
      if (c.out.again === true) return undefined;
      const job = c.kind === "storage-job" && ["move", "copy", "delete"].includes(c.detail.action as string) ? { job: c.detail.action as "move" | "copy" | "delete" } : {};
      // A job's cancel moves nothing itself: the job's own end says what it did ("moved or copied" it read).
      if (c.kind === "storage-job" && !job.job) return undefined;
      const ended = (c.out.job ?? {}) as { state?: unknown; done?: unknown };
      if (ended.state === "cancelled") {
        const done = typeof ended.done === "number" ? ended.done : undefined;
        return { ...base, kind: c.kind, keys: c.keys.slice(0, EVENT_RECORDS_MAX), ...job, ...(typeof c.detail.from === "string" ? { from: c.detail.from } : {}), ...(typeof c.detail.to === "string" && c.detail.action !== "delete" ? { to: c.detail.to } : {}), ...(done !== undefined ? { count: done } : {}), cancelled: true, truncated: true };
      }
      // Where a job took what, said as such ("moved docs/ → documents/, 3 files"): its keys list
      // the source, the destination and every file under both, which read as one list of 8.
      const ends = c.kind === "storage-job" ? { ...(typeof c.detail.from === "string" ? { from: c.detail.from } : {}), ...(typeof c.detail.to === "string" && c.detail.action !== "delete" ? { to: c.detail.to } : {}) } : {};
      // How many files it took: as the ended job counts them, else as listed before it (review
      // 56a #7: a job of 5,500 files, past the list's limit, was announced without a count).
      const files =
        c.kind !== "storage-job" ? {} : typeof ended.done === "number" ? { count: ended.done } : Array.isArray(c.detail.files) && !c.detail.filesMore ? { count: (c.detail.files as unknown[]).length } : {};
      return { ...base, kind: c.kind, keys: c.keys.slice(0, EVENT_RECORDS_MAX), ...job, ...ends, ...files, ...(c.keys.length > EVENT_RECORDS_MAX ? { truncated: true } : {}) };
    }
    case "restore-file":
      // A restored version is a new newest version of the key: to the others, the file was replaced.
      return { ...base, kind: "upload", keys: c.keys.slice(0, 1) };
    default:
      return undefined;
  }
}

/**
 * A change whose answer never came back (the upstream failed after it was sent): it may have been
 * made. Its table's readers are told to read it again (`truncated`, no Records), as after a change
 * too large to list; a bucket's change is left to the next listing (its news would say it was
 * made). Until stop 49 nothing was sent, so the others' views could stay stale.
 */
export function unsureChangeEventOf(c: AppliedChange, actor: Pick<Actor, "email" | "name">, tab: string | undefined, at = new Date()): NewChangeEvent | undefined {
  if (!c.resource?.startsWith("table:")) return undefined;
  const resource = c.resource as Resource;
  const kind = c.kind === "insert" || c.kind === "delete-records" || c.kind === "import" ? c.kind : "update";
  return { at: at.toISOString(), resource, ...resourceParts(resource), actor: { email: actor.email, name: actor.name }, origin: "baseboard", ...(tab ? { tab } : {}), kind, truncated: true };
}
