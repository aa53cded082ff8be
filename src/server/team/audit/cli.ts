/**
 * `npm run audit -- verify` walks the chain (DATA_DIR/audit.sqlite, or BASEBOARD_DATABASE_URL)
 * and names the first broken link, exit 1 then; `npm run audit -- export --since <ISO time>
 * [--until <ISO time>] --format jsonl|csv` writes entries (outcomes folded in) to standard output.
 */
import { parseIsoTime } from "./iso-time";
import { parseArgs } from "node:util";
import { stringify } from "csv-stringify/sync";
import type { AuditEntry } from "./audit-entry";
import { firstBrokenLink } from "./audit-entry";
import { present } from "./audit-api";
import type { AuditLog } from "./audit-log";
import { openAuditLog, unusableAuditLog } from "./open-audit-log";

const USAGE = `Usage: npm run audit -- verify
       npm run audit -- export [--since <ISO time>] [--until <ISO time>] [--format jsonl|csv]`;

/** The CSV export's columns: one row per change, its outcome folded in. */
export const CSV_COLUMNS = ["seq", "at", "actor", "address", "action", "resource", "keys", "outcome", "count", "message", "filter", "values", "detail", "hash"] as const;

async function* walk(log: AuditLog, afterSeq: number): AsyncGenerator<AuditEntry> {
  let after = afterSeq;
  for (;;) {
    const batch = await log.batch(after, 5000);
    if (batch.length === 0) return;
    yield* batch;
    after = batch[batch.length - 1].seq;
  }
}

export async function verify(log: AuditLog): Promise<{ ok: true; entries: number } | { ok: false; seq: number; why: string }> {
  const cp = await log.checkpoint();
  // Retention deletes the entries it drops and moves the checkpoint in one transaction: an entry
  // still stored at or before the checkpoint means the checkpoint was moved over kept entries,
  // which the walk from it would never look at (review 37a #2: edited entries 1-10, then the
  // checkpoint set to entry 10's hash, verified, and the app still showed them).
  const [first] = cp.seq > 0 ? await log.batch(0, 1) : [];
  if (first && first.seq <= cp.seq) {
    return { ok: false, seq: first.seq, why: `entry ${first.seq} is still stored behind the checkpoint (entry ${cp.seq}), which only ever follows entries retention has deleted: the checkpoint was moved over entries that were kept, and they are not covered by the chain` };
  }
  const entries: AuditEntry[] = [];
  let count = 0;
  let from = cp;
  // Batches of 5,000, carrying the last hash across (memory stays flat however long the trail).
  for await (const e of walk(log, cp.seq)) {
    entries.push(e);
    count++;
    if (entries.length === 5000) {
      const broken = firstBrokenLink(entries, from);
      if (broken) return { ok: false, ...broken };
      from = { seq: entries[entries.length - 1].seq, hash: entries[entries.length - 1].hash };
      entries.length = 0;
    }
  }
  const broken = firstBrokenLink(entries, from);
  return broken ? { ok: false, ...broken } : { ok: true, entries: count };
}

/** An ISO time given on the command line, or why not. */
function timeArg(name: string, raw: string | undefined): number | string | undefined {
  if (raw === undefined) return undefined;
  return parseIsoTime(raw) ?? `--${name} is an ISO time such as 2026-11-01 or 2026-11-01T08:00:00Z, on a date that exists (got "${raw}").`;
}

/**
 * Runs the command; `out` writes one line of results (awaited: a slow pipe holds the export
 * back instead of losing its end), `err` one line of complaint. The exit code is returned.
 */
export async function runAuditCommand(argv: string[], out: (s: string) => unknown, err: (s: string) => void = (s) => void out(s)): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== "verify" && command !== "export") {
    err(USAGE);
    return 2;
  }
  let values: { since?: string; until?: string; format?: string };
  try {
    // Strict: an unknown option or one without its value is an error, not quietly ignored.
    values = parseArgs({ args: rest, options: command === "export" ? { since: { type: "string" }, until: { type: "string" }, format: { type: "string" } } : {}, strict: true, allowPositionals: false }).values;
  } catch (e) {
    err(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const format = values.format ?? "jsonl";
  if (format !== "jsonl" && format !== "csv") {
    err(`--format is jsonl or csv (got "${format}").`);
    return 2;
  }
  const sinceArg = timeArg("since", values.since) ?? 0;
  const untilArg = timeArg("until", values.until) ?? Infinity;
  if (typeof sinceArg === "string" || typeof untilArg === "string") {
    err(typeof sinceArg === "string" ? sinceArg : (untilArg as string));
    return 2;
  }
  const [since, until] = [sinceArg, untilArg];
  const unusable = await unusableAuditLog(process.env);
  if (unusable) {
    err(unusable);
    return 1;
  }
  let log: AuditLog;
  try {
    log = await openAuditLog(process.env);
  } catch (e) {
    return damaged(e, err);
  }
  try {
    return await runOn(log, command, format, since, until, out);
  } catch (e) {
    return damaged(e, err);
  } finally {
    await log.close();
  }
}

/**
 * A trail file SQLite cannot read (cut short, overwritten) is said as such, with what to do,
 * exit 1 (review 50a #2: SQLite's "database disk image is malformed" alone, exit 2 as for a bad
 * option). Anything else is thrown on.
 */
function damaged(e: unknown, err: (s: string) => void): number {
  const code = (e as { code?: unknown }).code;
  if (code !== "SQLITE_CORRUPT" && code !== "SQLITE_NOTADB") throw e;
  err(`The activity log file (DATA_DIR/audit.sqlite, DATA_DIR=${process.env.DATA_DIR ?? ".data"}) is damaged and cannot be read (SQLite: ${(e as Error).message}): restore it from a backup. It was not verified; nothing was changed.`);
  return 1;
}

async function runOn(log: AuditLog, command: "verify" | "export", format: "jsonl" | "csv", since: number, until: number, out: (s: string) => unknown): Promise<number> {
  if (command === "verify") {
    const r = await verify(log);
    if (r.ok) {
      // The history index is derived from the entries, not in the chain: checked against them.
      const index = await log.historyIndexProblem();
      if (index) {
        out(`The activity log's entries verify (${r.entries}, every link intact), but its history index was changed: ${index}. A Record's history may hide or invent changes; the entries are right.`);
        return 1;
      }
      out(`The activity log verifies: ${r.entries} entr${r.entries === 1 ? "y" : "ies"}, every link intact.`);
      // A chain proves nothing before its first entry: say where it starts, and why it may.
      const cp = await log.checkpoint();
      if (cp.seq > 0) {
        const kept = process.env.BASEBOARD_AUDIT_RETENTION_DAYS ? `retention (BASEBOARD_AUDIT_RETENTION_DAYS=${process.env.BASEBOARD_AUDIT_RETENTION_DAYS}) drops old entries` : "no retention is set here (BASEBOARD_AUDIT_RETENTION_DAYS): if none was ever set, someone removed them";
        out(`It starts after entry ${cp.seq}: entries 1 to ${cp.seq} were dropped behind a checkpoint; ${kept}.`);
      }
      return 0;
    }
    out(`The activity log is broken at entry ${r.seq}: ${r.why}.`);
    return 1;
  }
  const json = (v: unknown) => (v === undefined ? "" : JSON.stringify(v));
  const pending: AuditEntry[] = [];
  const flush = async () => {
    const outcomes = await log.outcomesOf(pending.map((e) => e.seq));
    for (const e of pending) {
      const p = present(e, outcomes.get(e.seq));
      if (format === "jsonl") await out(JSON.stringify(p));
      else {
        const row = [p.seq, p.at, p.actor, p.address, p.action, p.table ?? p.bucket ?? "", json(p.keys), p.outcome ?? "", p.count ?? "", p.message ?? "", json(p.filter), json(p.values)];
        await out(stringify([[...row, json(p.changes ?? p.deleted ?? p.records ?? p.file ?? p.detail ?? null), p.hash]]).trimEnd());
      }
    }
    pending.length = 0;
  };
  if (format === "csv") await out(CSV_COLUMNS.join(","));
  const cp = await log.checkpoint();
  for await (const e of walk(log, cp.seq)) {
    if (e.at < since || e.at > until || e.kind === "outcome") continue;
    pending.push(e);
    if (pending.length >= 1000) await flush();
  }
  await flush();
  return 0;
}

/** A line to standard output, waiting while the pipe is full (process.exit would cut it short). */
function writeLine(s: string): Promise<void> | void {
  if (process.stdout.write(`${s}\n`)) return;
  return new Promise((resolve) => process.stdout.once("drain", resolve));
}

if (process.argv[1] && /audit[\\/]cli\.[tj]s$/.test(process.argv[1])) {
  // A reader that stops early (`| head`) has what it wanted: stop quietly, as other tools do.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    process.exit(0);
  });
  // The exit code is set, not forced: the process ends once standard output is flushed.
  runAuditCommand(process.argv.slice(2), writeLine, (s) => console.error(s)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      console.error(`Error: ${(e as Error).message}`);
      process.exitCode = 2;
    },
  );
}
