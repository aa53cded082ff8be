/**
 * The bus across proxies (BASEBOARD_DATABASE_URL): a change is a row of bb_live_events (its id
 * is the event id every proxy uses) and a NOTIFY carrying only that id: payloads go by
 * reference, so a 1,000-Record event is no problem for NOTIFY's 8,000-byte limit. Each proxy
 * LISTENs on one connection and reads the rows after the last it delivered, in id order, so a
 * missed or coalesced notification loses nothing. Rows are kept 15 minutes for resuming.
 * Presence is small and ephemeral: it rides in the NOTIFY payload itself.
 */
import pg from "pg";
import type { EventBus } from "./event-bus";
import { KEEP_MS, REPLAY_MAX } from "./event-bus";
import type { ChangeEvent, PresenceState } from "./live-event";
import { pgJsonText, pgText } from "../store/pg-text";

const CHANNEL = "bb_live";
const PUBLISH_LOCK = 727144;
const SCHEMA = `
CREATE TABLE IF NOT EXISTS bb_live_events (id BIGSERIAL PRIMARY KEY, at TIMESTAMPTZ NOT NULL DEFAULT now(), payload JSONB NOT NULL, dedupe TEXT UNIQUE);
CREATE INDEX IF NOT EXISTS bb_live_events_at ON bb_live_events(at);
CREATE TABLE IF NOT EXISTS bb_live_pruned (one INT PRIMARY KEY CHECK (one = 1), up_to BIGINT NOT NULL);
`;

export async function createPostgresBus(url: string, opts: { log?(line: string): void; keepMs?: number; maxReplay?: number } = {}): Promise<EventBus> {
  const maxReplay = opts.maxReplay ?? REPLAY_MAX;
  const keepMs = Math.max(opts.keepMs ?? KEEP_MS, 5 * 60_000) + 5 * 60_000;
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on("error", () => {});
  // Two proxies starting at once on an empty database: CREATE … IF NOT EXISTS can still race.
  await pool.query("SELECT pg_advisory_lock(727143)");
  try {
    await pool.query(SCHEMA);
  } finally {
    await pool.query("SELECT pg_advisory_unlock(727143)").catch(() => {});
  }
  const changeFns: ((e: ChangeEvent) => void)[] = [];
  const presenceFns: ((p: PresenceState) => void)[] = [];
  const seq = await pool.query<{ max: string | null }>("SELECT max(id)::text AS max FROM bb_live_events");
  let delivered = Number(seq.rows[0].max ?? 0);
  let closed = false;
  let listener: pg.Client | undefined;
  let reading: Promise<void> = Promise.resolve();
  let publishing: Promise<void> = Promise.resolve();

  /** Deliver every row after the last delivered, in order (one reader at a time). */
  const readNew = () => {
    reading = reading.then(async () => {
      if (closed) return;
      const r = await pool.query<{ id: string; payload: Omit<ChangeEvent, "id"> }>("SELECT id::text, payload FROM bb_live_events WHERE id > $1 ORDER BY bb_live_events.id LIMIT 5000", [delivered]);
      for (const row of r.rows) {
        delivered = Math.max(delivered, Number(row.id));
        const e = { ...row.payload, id: Number(row.id) } as ChangeEvent;
        for (const fn of changeFns) fn(e);
      }
      if (r.rows.length === 5000) readNew();
    }).catch((e) => opts.log?.(`live events: could not read new events: ${(e as Error).message}`));
    return reading;
  };

  /**
   * Listens again after a lost connection, until it can: every second at first, then up to every
   * 10 s while the database stays down (one try that failed must not end live events for good).
   */
  const relisten = (attempt: number) => {
    if (closed) return;
    setTimeout(() => {
      listen().then(
        () => opts.log?.("live events: listening again; changes made meanwhile are delivered"),
        (e: Error) => {
          if (attempt === 0) opts.log?.(`live events: cannot listen yet (${e.message}); trying again until the database answers`);
          relisten(attempt + 1);
        },
      );
    }, Math.min(1000 * 2 ** attempt, 10_000)).unref();
  };

  async function listen(): Promise<void> {
    if (closed) return;
    const client = new pg.Client({ connectionString: url });
    let lost = false;
    const lose = (e: Error) => {
      if (lost || closed) return;
      lost = true;
      client.end().catch(() => {});
      if (listener === client) {
        listener = undefined;
        opts.log?.(`live events: the LISTEN connection failed (${e.message}); reconnecting`);
        relisten(0);
      }
    };
    client.on("error", lose);
    client.on("end", () => lose(new Error("the connection closed")));
    client.on("notification", (n) => {
      const p = n.payload ?? "";
      if (p.startsWith("p:")) {
        try {
          const state = JSON.parse(p.slice(2)) as PresenceState;
          for (const fn of presenceFns) fn(state);
        } catch {
          /* not ours */
        }
      } else void readNew();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (e) {
      lost = true;
      client.end().catch(() => {});
      throw e;
    }
    listener = client;
    // Whatever was committed while we were not listening.
    await readNew();
  }
  await listen();

  const prune = setInterval(() => {
    void (async () => {
      const r = await pool.query<{ max: string | null }>("WITH gone AS (DELETE FROM bb_live_events WHERE at < now() - ($1::text || ' milliseconds')::interval RETURNING id) SELECT max(id)::text AS max FROM gone", [String(keepMs)]);
      const max = r.rows[0]?.max;
      if (max) await pool.query("INSERT INTO bb_live_pruned (one, up_to) VALUES (1, $1) ON CONFLICT (one) DO UPDATE SET up_to = GREATEST(bb_live_pruned.up_to, EXCLUDED.up_to)", [max]);
    })().catch(() => {});
  }, 60_000);
  prune.unref();

  return {
    publish(e, dedupe) {
      // One statement: the row and its notification commit together (NOTIFY is transactional).
      // The lock (held to commit) makes rows commit in id order across proxies: readers take
      // "every id after the last delivered", so a lower id committing after a higher one was
      // read would never reach a live stream. Chained here so one proxy's changes go in order.
      const done = publishing.then(() =>
        pool.query(
          `WITH l AS (SELECT pg_advisory_xact_lock(${PUBLISH_LOCK})),
           ins AS (INSERT INTO bb_live_events (payload, dedupe) SELECT $1::jsonb, $2::text FROM l ON CONFLICT (dedupe) DO NOTHING RETURNING id)
           SELECT pg_notify('${CHANNEL}', 'c:' || id) FROM ins`,
          // jsonb refuses a lone surrogate half (and NUL): the event went to nobody (pg-text.ts).
          [pgJsonText(JSON.stringify(e)), dedupe === undefined ? null : pgText(dedupe)],
        ),
      );
      publishing = done.then(
        () => {},
        () => {},
      );
      return done.then(() => {});
    },
    async presence(p) {
      await pool.query(`SELECT pg_notify('${CHANNEL}', $1)`, [`p:${pgJsonText(JSON.stringify(p))}`]);
    },
    onChange(fn) {
      changeFns.push(fn);
    },
    onPresence(fn) {
      presenceFns.push(fn);
    },
    async since(id) {
      const pruned = await pool.query<{ up_to: string }>("SELECT up_to::text FROM bb_live_pruned WHERE one = 1");
      if (pruned.rows[0] && id < Number(pruned.rows[0].up_to)) return undefined;
      const max = await pool.query<{ last: string }>("SELECT last_value::text AS last FROM bb_live_events_id_seq");
      if (id > Number(max.rows[0].last)) return undefined;
      // One more than may be replayed: when it is there, the client refetches (it was cut at
      // 20,000 without a word, and the events past them were never sent).
      const r = await pool.query<{ id: string; payload: Omit<ChangeEvent, "id"> }>("SELECT id::text, payload FROM bb_live_events WHERE id > $1 ORDER BY bb_live_events.id LIMIT $2", [id, maxReplay + 1]);
      if (r.rows.length > maxReplay) return undefined;
      return r.rows.map((row) => ({ ...row.payload, id: Number(row.id) }) as ChangeEvent);
    },
    delivered() {
      return delivered;
    },
    async close() {
      closed = true;
      clearInterval(prune);
      await reading.catch(() => {});
      await listener?.end().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}
