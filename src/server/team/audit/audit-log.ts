/** The audit trail's store seam: append to one chain, read by filters newest first, walk for verify. */
import type { AuditEntry, Checkpoint, NewAuditEntry } from "./audit-entry";

export interface AuditQuery {
  resource?: string;
  key?: string;
  actor?: string;
  since?: number;
  until?: number;
  kinds?: string[];
  /** Newest first: only entries with a smaller seq (the cursor). */
  beforeSeq?: number;
  limit: number;
}

export interface AuditLog {
  readonly kind: "embedded" | "postgres";
  /** Appends one entry at the head of the chain (serialized across processes). Throws when it cannot be written. */
  append(e: NewAuditEntry): Promise<AuditEntry>;
  list(q: AuditQuery): Promise<AuditEntry[]>;
  /**
   * The `outcome` entries that complete these changes, by the change's seq: the newest of each
   * (a storage job has one when it is answered and one when it ends).
   */
  outcomesOf(seqs: number[]): Promise<Map<number, AuditEntry>>;
  /** Entries in seq order after `afterSeq`, a batch at a time (for verify and export). */
  batch(afterSeq: number, limit: number): Promise<AuditEntry[]>;
  checkpoint(): Promise<Checkpoint>;
  /**
   * Whether the history index (which a Record's history reads, and which the hash chain does not
   * cover) holds exactly what the entries say: undefined when it does, else what is wrong.
   */
  historyIndexProblem(): Promise<string | undefined>;
  /**
   * Resolves once every entry's keys are in the history index (the embedded trail links a bulk
   * entry's keys after its append; histories find them either way). For tests and benchmarks.
   */
  linked?(): Promise<void>;
  /** Retention: drops entries older than `before` behind a checkpoint; how many went. */
  dropOlderThan(before: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * What `historyIndexProblem` says when the list of changes past the before-images' limit (which
 * every Record's history of their table shows, as "perhaps this one") disagrees with the entries.
 * Both stores word it the same.
 */
export function partialListProblem(side: "missing" | "extra", resource: string, change: number): string {
  return side === "missing"
    ? `the histories of ${resource} do not list entry ${change}, a change that does not name every Record it changed (past the 10,000 before-images, an import's added Records, or a change whose answer never came back)`
    : `the histories of ${resource} list entry ${change} as a change that does not name every Record it changed, which no entry says`;
}

/**
 * Whether an entry changed Records of its table it does not name: an update past the
 * before-images' limit (`beforeImagesOmitted`), an import that added more than it names
 * (`addedOmitted`), an update or delete whose answer never came back and whose filter names no
 * Record by its key (`recordsNotNamed`). Every Record's history of that table lists it
 * ("perhaps this one").
 */
export function namesNotAll(detail: Record<string, unknown>): boolean {
  return Number(detail.beforeImagesOmitted) > 0 || Number(detail.addedOmitted) > 0 || detail.recordsNotNamed === true;
}

/**
 * Retention never cuts between a change's request entry and an outcome still to come: the
 * outcome would be kept with nothing saying what was asked, listed nowhere (review 28a #5: a slow
 * upload's, or a job's that ended after an hourly run). A change is under way while its request
 * entry (written "pending") has no outcome, or only one saying its job still runs; one older than
 * IN_FLIGHT_MS (a proxy that stopped mid-change never writes its outcome) holds nothing back.
 */
export const IN_FLIGHT_MS = 24 * 60 * 60 * 1000;
/** SQL condition on request entries `a` of `table` under way, written since the parameter `since`. */
export const inFlight = (table: string, since: string) =>
  `a.kind <> 'outcome' AND a.at >= ${since} AND a.detail LIKE '%"outcome":"pending"%' AND NOT EXISTS (SELECT 1 FROM ${table} o WHERE o.ref = a.seq AND o.kind = 'outcome' AND o.detail NOT LIKE '%"state":"running"%')`;
