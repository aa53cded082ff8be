/**
 * One entry of the audit trail, and the hash chain over entries (pure). Each entry carries the
 * SHA-256 of the one before it, over a fixed encoding of every stored column, so editing,
 * removing or reordering any entry breaks every hash after it: `npm run audit -- verify` names
 * the first broken link. Retention drops old entries behind a checkpoint (the seq and hash of the
 * last one dropped), from which the rest still verifies.
 */
import { createHash } from "node:crypto";

export type AuditKind =
  | "update"
  | "insert"
  | "delete-records"
  | "import"
  | "upload"
  /** A file's older version made its newest (storage restore). */
  | "restore-file"
  | "delete-file"
  | "storage-job"
  | "people"
  | "refused"
  | "sign-in-failed"
  | "outcome";

export interface NewAuditEntry {
  at: number;
  actorEmail: string;
  actorKind: string;
  address: string;
  kind: AuditKind;
  endpoint: string;
  /** `table:db/slug` or `bucket:name`, when the entry is about one. */
  resource: string | null;
  /** Records' primary keys (as text) or object keys this entry touched, for history look-ups. */
  keys: string[];
  /** Everything else, as JSON: filter, values, before/after per Record, counts, outcome, message. */
  detail: Record<string, unknown>;
  /** For an `outcome` entry: the seq of the change it completes. */
  ref?: number | null;
}

export interface AuditEntry extends Omit<NewAuditEntry, "detail"> {
  seq: number;
  detailJson: string;
  prevHash: string;
  hash: string;
}

export const GENESIS = "0".repeat(64);

/** The hash of an entry: over the previous hash and every stored column, in a fixed order. */
export function entryHash(prevHash: string, e: Omit<AuditEntry, "hash" | "prevHash">): string {
  const fields = [e.seq, e.at, e.actorEmail, e.actorKind, e.address, e.kind, e.endpoint, e.resource, e.keys, e.detailJson, e.ref ?? null];
  return createHash("sha256").update(prevHash).update("\n").update(JSON.stringify(fields)).digest("hex");
}

export interface Checkpoint {
  /** The seq of the last entry dropped by retention (0: none). */
  seq: number;
  hash: string;
}

/** Walks entries in seq order from a checkpoint; the first entry whose link or hash is wrong, or undefined. */
export function firstBrokenLink(entries: Iterable<AuditEntry>, from: Checkpoint): { seq: number; why: string } | undefined {
  let prev = from.hash;
  let expectSeq = from.seq + 1;
  for (const e of entries) {
    if (e.seq !== expectSeq) return { seq: e.seq, why: `entry ${expectSeq} is missing (the next one is ${e.seq})` };
    if (e.prevHash !== prev) return { seq: e.seq, why: `entry ${e.seq} does not point at the hash of entry ${e.seq - 1}` };
    const { hash: _h, prevHash: _p, ...rest } = e;
    if (entryHash(prev, rest) !== e.hash) return { seq: e.seq, why: `entry ${e.seq} was changed after it was written (its hash does not match its content)` };
    prev = e.hash;
    expectSeq++;
  }
  return undefined;
}
