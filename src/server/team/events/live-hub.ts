/**
 * The live hub of one proxy: GET /api/events (server-sent events over node:http) and
 * POST /api/presence. Every subscriber gets only the events of tables and buckets its person may
 * read. Bounded: at most `maxSubscribers` streams (503 beyond), and a subscriber whose unsent
 * output passes `maxBufferedBytes` (it stopped reading) is dropped, never buffered without end;
 * it comes back with Last-Event-ID and resumes from the bus's kept events.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorBody } from "../../../shared/errors";
import { type Actor, personKey, type Resource, SHARED_PASSWORD, SINGLE_USER } from "../contract";
import { mayRead } from "../grants/permissions";
import type { EventBus } from "./event-bus";
import { type ChangeEvent, type NewChangeEvent, type PresenceState, sseFrame } from "./live-event";

/** Live streams one person may hold at once (one per tab), and tabs they may show presence in. */
const PER_PERSON_STREAMS = 50;

export interface LiveOptions {
  bus: EventBus;
  maxSubscribers: number;
  heartbeatMs: number;
  /** How often each stream's person is looked up again (grants changed, session ended). */
  recheckMs: number;
  maxBufferedBytes: number;
  /** Called once, when the first stream opens (following the service's own events starts then). */
  onFirstSubscriber?(): void;
  log(line: string): void;
}

export function liveOptionsFromEnv(env: NodeJS.ProcessEnv): Omit<LiveOptions, "bus" | "log"> {
  const num = (name: string, dflt: number, min: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return dflt;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number of at least ${min}, not "${raw}".`);
    return n;
  };
  return {
    maxSubscribers: num("BASEBOARD_EVENTS_MAX_SUBSCRIBERS", 1000, 1),
    heartbeatMs: num("BASEBOARD_EVENTS_HEARTBEAT_MS", 25_000, 100),
    recheckMs: num("BASEBOARD_EVENTS_RECHECK_MS", 30_000, 100),
    maxBufferedBytes: num("BASEBOARD_EVENTS_MAX_BUFFER_BYTES", 1024 * 1024, 1024),
  };
}

interface Subscriber {
  res: ServerResponse;
  actor: Actor;
  lastId: number;
  /** Events that arrived while the backlog was being sent. */
  pending: ChangeEvent[] | null;
  /** Who the stream's request is now (grants change, sessions end, while a stream is open). */
  reidentify?(): Promise<Actor | undefined>;
}

const presenceKey = (p: Pick<PresenceState, "email" | "tab">) => `${p.email}\n${p.tab}`;

export interface LiveHub {
  handleEvents(req: IncomingMessage, res: ServerResponse, actor: Actor, lastEventId: string | undefined, reidentify?: () => Promise<Actor | undefined>): Promise<void>;
  /** POST /api/presence body: where this tab is. */
  setPresence(actor: Actor, body: unknown): Promise<{ status: number; body: unknown }>;
  publish(e: NewChangeEvent, dedupe?: string): Promise<void>;
  subscriberCount(): number;
  /** Every open stream looks its person up again now (people or grants changed somewhere). */
  recheck(): void;
  close(): Promise<void>;
}

export function createLiveHub(o: LiveOptions): LiveHub {
  const subs = new Set<Subscriber>();
  let started = false;
  const presence = new Map<string, PresenceState>();
  const may = (actor: Actor, r: Resource) => mayRead(actor, r);

  const drop = (s: Subscriber, why: string) => {
    if (!subs.delete(s)) return;
    o.log(`live events: dropped ${s.actor.email}'s stream (${why}); it resumes when it reconnects`);
    s.res.destroy();
  };
  const write = (s: Subscriber, frame: string) => {
    if (s.res.destroyed) return void subs.delete(s);
    // Measured before writing: a reader that keeps up has (almost) nothing unsent when the next
    // event comes, however big the last one was; one that stopped reading still has it all.
    if (s.res.writableLength > o.maxBufferedBytes) return drop(s, `${s.res.writableLength} bytes unread`);
    s.res.write(frame);
  };
  const send = (s: Subscriber, e: ChangeEvent) => {
    if (e.id <= s.lastId) return;
    s.lastId = e.id;
    if (may(s.actor, e.resource)) write(s, sseFrame("change", e, e.id));
  };

  /**
   * The newest event this hub has seen (from the bus's own newest at first): where a stream told to
   * refetch goes on from, and where a new stream resumes from.
   */
  let latestId = o.bus.delivered();
  o.bus.onChange((e) => {
    latestId = Math.max(latestId, e.id);
    for (const s of subs) {
      if (s.pending) s.pending.push(e);
      else send(s, e);
    }
  });
  /** Tabs this email shows presence in now, and whether one more would pass a person's share. */
  const tabsFull = (email: string, key: string) => {
    if (presence.has(key)) return false;
    const now = Date.now();
    let mine = 0;
    for (const p of presence.values()) if (p.email === email && p.until > now) mine++;
    return mine >= PER_PERSON_STREAMS;
  };
  o.bus.onPresence((p) => {
    const key = presenceKey(p);
    const was = presence.get(key)?.view;
    if (p.view === null) presence.delete(key);
    // Checked here too, for what other proxies on the bus pass on (each newcomer's stream starts
    // with every tab's presence: one viewer's 3,000 posts made 3,000 events per new stream).
    else if (tabsFull(p.email, key) && p.email !== SINGLE_USER.email && p.email !== SHARED_PASSWORD.email) return;
    else presence.set(key, p);
    // A tab is news only to those who may read where it is, or where it was: to those, a move
    // somewhere they may not read is a leave. (Every leave went to every stream: anyone signed in
    // learned who closed what, when: review 36a #4.)
    const left = sseFrame("presence", { ...p, view: null, record: undefined, editing: undefined });
    for (const s of subs) {
      if (p.view && may(s.actor, p.view)) write(s, sseFrame("presence", p));
      else if (was && may(s.actor, was)) write(s, left);
    }
  });

  const heartbeat = setInterval(() => {
    const now = Date.now();
    for (const [k, p] of presence) if (p.until < now) presence.delete(k);
    for (const s of subs) write(s, ": heartbeat\n\n");
  }, o.heartbeatMs);
  heartbeat.unref();

  // Grants change and sessions end while a stream is open: look the person up again, at once
  // when the people store's revision moves (recheck), and every 30 s whatever happens.
  const recheck = () => {
    for (const s of subs) {
      void s.reidentify?.().then(
        (a) => {
          if (!a) drop(s, "signed out, revoked or disabled");
          else s.actor = a;
        },
        () => {},
      );
    }
  };
  const regrant = setInterval(recheck, o.recheckMs);
  regrant.unref();

  return {
    async handleEvents(req, res, actor, lastEventId, reidentify) {
      if (subs.size >= o.maxSubscribers) {
        res.writeHead(503, { "content-type": "application/json; charset=utf-8", "retry-after": "10", "cache-control": "no-store" });
        res.end(JSON.stringify(errorBody("unavailable", `This proxy already serves ${o.maxSubscribers} live streams (BASEBOARD_EVENTS_MAX_SUBSCRIBERS); try again shortly.`)));
        return;
      }
      // One person's streams are at most a share of them (one viewer opened them all, and
      // everyone else's stream was refused); a person is one, however many sessions.
      // (The single user and the shared password are everyone: the proxy's own limit is theirs.)
      const me = personKey(actor);
      const mine = me ? [...subs].filter((x) => personKey(x.actor) === me).length : 0;
      if (mine >= PER_PERSON_STREAMS) {
        res.writeHead(503, { "content-type": "application/json; charset=utf-8", "retry-after": "10", "cache-control": "no-store" });
        res.end(JSON.stringify(errorBody("unavailable", `You already have ${mine} live streams open (one per tab), the most one person may have; close some tabs.`)));
        return;
      }
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
        connection: "keep-alive",
      });
      req.socket.setNoDelay(true);
      req.socket.setKeepAlive(true, 30_000);
      const s: Subscriber = { res, actor, lastId: 0, pending: [], reidentify };
      if (!started) {
        started = true;
        o.onFirstSubscriber?.();
      }
      subs.add(s);
      res.on("close", () => subs.delete(s));
      // Tell the browser how long to wait before reconnecting, and who is here now.
      res.write("retry: 3000\n\n");
      const now = Date.now();
      for (const p of presence.values()) if (p.until > now && p.view && may(actor, p.view)) write(s, sseFrame("presence", p));
      const asked = lastEventId?.trim();
      const from = asked && /^\d+$/.test(asked) && Number.isSafeInteger(Number(asked)) ? Number(asked) : undefined;
      // Events from here on are queued for this stream (`pending`): a refetch covers those before.
      const head = latestId;
      /**
       * Refetch what is shown. The frame carries the newest id this stream is past, so that the
       * browser's next reconnect resumes from there instead of asking for the same backlog again.
       */
      const reset = (past: number) => {
        s.lastId = Math.max(s.lastId, past);
        write(s, sseFrame("reset", { message: "Some changes may have been missed while you were away: refetch what is shown." }, s.lastId || undefined));
      };
      // A stream asking for nothing starts here: its first frames carry this id, so that the
      // browser's reconnect resumes from it (review 51a #1: with no id until the first event, a
      // stream that dropped before one came reconnected without one, and missed what came between).
      if (!asked) s.lastId = head;
      if (asked && from === undefined) {
        // An id this proxy never gave ("garbage", -5, 1e20): what was missed cannot be known.
        reset(head);
      } else if (from !== undefined) {
        const backlog = await o.bus.since(from).catch(() => undefined);
        if (backlog === undefined) reset(head);
        else {
          // What this person may see of it, framed; more than the stream may hold unread is a
          // refetch: written anyway, it dropped the stream before its first byte, and the
          // browser came back for the same backlog, for ever (review 36a).
          const frames: { id: number; frame: string }[] = [];
          let bytes = 0;
          for (const e of backlog) {
            if (e.id <= from || !may(s.actor, e.resource)) continue;
            const frame = sseFrame("change", e, e.id);
            frames.push({ id: e.id, frame });
            bytes += Buffer.byteLength(frame);
            if (bytes > o.maxBufferedBytes / 2) break;
          }
          const last = backlog.length ? backlog[backlog.length - 1].id : from;
          if (bytes > o.maxBufferedBytes / 2) reset(Math.max(head, last));
          else {
            for (const { frame } of frames) write(s, frame);
            s.lastId = Math.max(from, last);
          }
        }
      }
      const queued = s.pending ?? [];
      s.pending = null;
      for (const e of queued) send(s, e);
      write(s, sseFrame("ready", { lastId: s.lastId }, s.lastId));
    },

    async setPresence(actor, body) {
      const b = (body ?? {}) as { tab?: unknown; view?: unknown; record?: unknown; editing?: unknown };
      const bad = (message: string) => ({ status: 400, body: errorBody("validation_error", message) });
      if (typeof b.tab !== "string" || !/^[\w-]{1,64}$/.test(b.tab)) return bad("tab: a short id of this browser tab (letters, digits, - and _).");
      const view = b.view === null || b.view === undefined ? null : b.view;
      if (view !== null && (typeof view !== "string" || !/^(table:[^/\s]+\/[^/\s]+|bucket:[^\s]+)$/.test(view))) return bad('view: "table:<db>/<slug>", "bucket:<name>" or null.');
      if (view && !may(actor, view as Resource)) return { status: 403, body: errorBody("forbidden", `You may not read ${view}.`) };
      const record = typeof b.record === "string" && b.record.length <= 500 ? b.record : undefined;
      const e = b.editing as { record?: unknown; field?: unknown } | undefined;
      const editing = e && typeof e.record === "string" && typeof e.field === "string" && e.record.length <= 500 && e.field.length <= 200 ? { record: e.record, field: e.field } : undefined;
      if (view !== null && personKey(actor) && tabsFull(actor.email, presenceKey({ email: actor.email, tab: b.tab }))) {
        return { status: 503, body: errorBody("unavailable", `You already show where you are in ${PER_PERSON_STREAMS} tabs, the most one person may; close some tabs.`) };
      }
      const state: PresenceState = { email: actor.email, name: actor.name, tab: b.tab, view: view as Resource | null, record, editing, until: Date.now() + 45_000 };
      await o.bus.presence(state);
      return { status: 204, body: undefined };
    },

    publish: (e, dedupe) => o.bus.publish(e, dedupe),
    recheck,
    subscriberCount: () => subs.size,

    async close() {
      clearInterval(heartbeat);
      clearInterval(regrant);
      for (const s of subs) s.res.end();
      subs.clear();
      await o.bus.close();
    },
  };
}
