/**
 * `npm run import` recorded in the audit trail as an import through the proxy is (a new user's
 * check found a 200,000-row Table made from the command line with no Activity entry, where
 * `npm run people` is recorded): the entry is written before the import starts (nothing is
 * imported when the trail cannot be written), and its outcome, with what it overwrote and the
 * keys it added, before the command says it is done. The actor is the command and the account
 * that ran it, as for `npm run people`.
 */
import type { AuditLog } from "./audit-log";
import { type Auditor, commandActor, createAuditor, type PendingChange } from "./auditor";
import { openAuditLog } from "./open-audit-log";

/** The command reads nothing of an upstream: the service's own code runs the import here. */
const NO_UPSTREAM = {
  getJson: async () => ({ status: 503, body: { message: "no upstream: a command on this machine" } }),
  postJson: async () => ({ status: 503, headers: {}, body: { message: "no upstream: a command on this machine" } }),
};

export interface CommandImport {
  /** Records how the import ended: its answer as the HTTP extension gives it, or its failure. */
  finish(status: number, answer: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the trail (DATA_DIR or BASEBOARD_DATABASE_URL, as `env` says) and records that `file`
 * is about to be imported into `db/slug`. Throws when the trail cannot be written.
 */
export async function recordCommandImport(env: NodeJS.ProcessEnv, target: { db: string; slug: string; size: number }, primaryKeyOf: (db: string, slug: string) => Promise<string | undefined>): Promise<CommandImport> {
  const log: AuditLog = await openAuditLog(env);
  let pending: PendingChange;
  try {
    const auditor: Auditor = createAuditor({ log, upstream: NO_UPSTREAM, tableOf: async (db, slug) => ({ primaryKey: await primaryKeyOf(db, slug), beforeImages: true }) });
    pending = await auditor.beforeChange({
      actor: commandActor("npm run import"),
      address: "this machine",
      method: "POST",
      endpoint: "import",
      upstreamPath: `/v0/record/${encodeURIComponent(target.db)}/${encodeURIComponent(target.slug)}/import`,
      target: `${target.db}/${target.slug}`,
      size: target.size,
    });
  } catch (e) {
    await log.close();
    throw e;
  }
  return {
    finish: async (status, answer) => {
      await pending.finish(status, {}, Buffer.from(answer));
    },
    close: () => log.close(),
  };
}
