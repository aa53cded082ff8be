/**
 * Writes made by *other* service instances on the same database, heard through LISTEN/NOTIFY:
 * every write transaction of an instance sends `NOTIFY bb_writes, '<instance id>'` (delivered
 * to listeners only when it commits), and each instance listens on one dedicated connection.
 * Caches of what the database holds (the store's counts) are dropped when one arrives.
 *
 * A notification arrives a moment after the commit (well under a millisecond on a local
 * network), so a count cached by one instance can lag another's commit by that moment; items
 * are always read fresh. While the listening connection is down, every read is treated as if
 * a foreign write had just happened (nothing cached is trusted), and on reconnecting too.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { PostgresOptions } from "./connection";

export const WRITES_CHANNEL = "bb_writes";
const RECONNECT_MS = 1000;

export interface ForeignWrites {
  /** This instance's id, the payload of its own notifications (ignored on receipt). */
  readonly instance: string;
  /** SQL that announces this transaction's write to the other instances on commit. */
  readonly notifySql: string;
  subscribe(listener: () => void): void;
  /** Called before each read: while not listening, nothing cached may be trusted. */
  beforeRead(): void;
  close(): Promise<void>;
}

export function foreignWrites(options: PostgresOptions): ForeignWrites {
  const instance = randomUUID();
  const listeners = new Set<() => void>();
  let client: pg.Client | undefined;
  let listening = false;
  let started = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const fire = () => {
    for (const l of listeners) l();
  };

  async function listen(): Promise<void> {
    retry = undefined;
    if (closed) return;
    const c = new pg.Client({ connectionString: options.url, connectionTimeoutMillis: options.connectTimeoutMs, application_name: "baseboard-listen" });
    client = c;
    const lost = () => {
      if (client !== c) return;
      client = undefined;
      listening = false;
      c.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void listen(), RECONNECT_MS).unref();
    };
    c.on("error", lost);
    c.on("end", lost);
    c.on("notification", (m) => {
      if (m.payload !== instance) fire();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${WRITES_CHANNEL}`);
      if (client !== c) return;
      listening = true;
      // Whatever was written while nobody listened.
      fire();
    } catch {
      lost();
    }
  }

  return {
    instance,
    notifySql: `NOTIFY ${WRITES_CHANNEL}, '${instance}'`,
    subscribe(listener) {
      listeners.add(listener);
      if (!started) {
        started = true;
        void listen();
      }
    },
    beforeRead() {
      if (started && !listening) fire();
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = undefined;
      listening = false;
      await c?.end().catch(() => undefined);
    },
  };
}
