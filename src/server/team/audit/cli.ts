/**
 * `npm run audit -- verify` walks the chain (DATA_DIR/audit.sqlite, or BASEBOARD_DATABASE_URL)
 * and names the first broken link, exit 1 then; `npm run audit -- export --since <ISO time>
 * --format jsonl|csv` writes entries (outcomes folded in) to standard output.
 */
import { stringify } from "csv-stringify/sync";
import type { AuditEntry } from "./audit-entry";
import { firstBrokenLink } from "./audit-entry";
import { present } from "./audit-api";
import type { AuditLog } from "./audit-log";
import { openAuditLog } from "./open-audit-log";

const USAGE = `Usage: npm run audit -- verify
       npm run audit -- export [--since <ISO time>] [--format jsonl|csv]`;

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

export async function runAuditCommand(argv: string[], out: (s: string) => void): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== "verify" && command !== "export") {
    out(USAGE);
    return 2;
  }
  const flag = (name: string) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const log = await openAuditLog(process.env);
  try {
    if (command === "verify") {
      const r = await verify(log);
      if (r.ok) {
        out(`The activity log verifies: ${r.entries} entr${r.entries === 1 ? "y" : "ies"}, every link intact.`);
        return 0;
      }
      out(`The activity log is broken at entry ${r.seq}: ${r.why}.`);
      return 1;
    }
    const format = flag("format") ?? "jsonl";
    if (format !== "jsonl" && format !== "csv") {
      out("--format is jsonl or csv.");
      return 2;
    }
    const sinceRaw = flag("since");
    const since = sinceRaw ? Date.parse(sinceRaw) : 0;
    if (!Number.isFinite(since)) {
      out("--since is an ISO time such as 2026-11-01 or 2026-11-01T08:00:00Z.");
      return 2;
    }
    const pending: AuditEntry[] = [];
    const flush = async () => {
      const outcomes = await log.outcomesOf(pending.map((e) => e.seq));
      for (const e of pending) {
        const p = present(e, outcomes.get(e.seq));
        if (format === "jsonl") out(JSON.stringify(p));
        else out(stringify([[p.seq, p.at, p.actor, p.address, p.action, p.table ?? p.bucket ?? "", p.keys.join(" "), p.outcome ?? "", p.count ?? "", JSON.stringify(p.changes ?? p.deleted ?? p.records ?? p.file ?? p.detail ?? null), p.hash]]).trimEnd());
      }
      pending.length = 0;
    };
    if (format === "csv") out("seq,at,actor,address,action,resource,keys,outcome,count,detail,hash");
    const cp = await log.checkpoint();
    for await (const e of walk(log, cp.seq)) {
      if (e.at < since || e.kind === "outcome") continue;
      pending.push(e);
      if (pending.length >= 1000) await flush();
    }
    await flush();
    return 0;
  } finally {
    await log.close();
  }
}

if (process.argv[1] && /audit[\\/]cli\.[tj]s$/.test(process.argv[1])) {
  runAuditCommand(process.argv.slice(2), (s) => console.log(s)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(`Error: ${(e as Error).message}`);
      process.exit(2);
    },
  );
}
