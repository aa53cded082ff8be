/**
 * Sessions of people: a random secret in an HttpOnly, SameSite=Strict cookie, kept in the team
 * store by its sha256 (a leaked store hands out no sessions). Idle timeout 12 h, absolute 7
 * days. What a request needs (session, person, grants) is cached per proxy and dropped whenever
 * the store's revision moves (polled every `pollMs`), so a disable, a role or grant change, a
 * password reset or a revoked session made anywhere ends the session here within ~1 s.
 */
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Actor } from "../contract";
import type { PersonRow, SessionEnd, SessionRow, TeamStore } from "../store/team-store";
import { readCookie } from "../../proxy/session";

export const PERSON_COOKIE = "bb_sid";
export const IDLE_MS = 12 * 3600 * 1000;
export const ABSOLUTE_MS = 7 * 24 * 3600 * 1000;
/** "Last seen" and the idle clock move at most this often per session (a write per request would not scale). */
const TOUCH_EVERY_MS = 60_000;

export const sessionHash = (secret: string) => createHash("sha256").update(secret).digest("hex");


interface Cached {
  actor: Actor;
  session: SessionRow;
}

export interface PeopleSessions {
  /** The person behind the request's cookie, or undefined (no cookie, unknown, expired, disabled). */
  actorOf(req: IncomingMessage): Promise<Actor | undefined>;
  /** Starts a session for `email`; returns the cookie's secret. */
  start(person: PersonRow, req: IncomingMessage): Promise<string>;
  end(req: IncomingMessage): Promise<void>;
  /** Why the request's cookie no longer opens a session, while that is kept (7 days). */
  whyEnded(req: IncomingMessage): Promise<SessionEnd | undefined>;
  /** Why the session of this cookie secret ended, while that is kept (a browser's sign-out mark). */
  whyEndedBy(secret: string): Promise<SessionEnd | undefined>;
  /** The session id (hash) of the request, for "this one" in lists. */
  idOf(req: IncomingMessage): string | undefined;
  /** How many people exist (refreshed with the revision). */
  peopleCount(): number;
  /** Each person's name by email, read once per revision (what the activity log's readers are shown). */
  names(): Promise<ReadonlyMap<string, string>>;
  /** Re-reads the revision now (tests, and right after a change made through this proxy). */
  refresh(): Promise<void>;
  /**
   * Called whenever the revision moves (a change here, on another proxy or by the people CLI):
   * open live streams look their person up again at once rather than at their next recheck.
   */
  onRevision(fn: () => void): void;
  close(): void;
}

export const actorFromPerson = (p: PersonRow, sessionId?: string): Actor => ({
  kind: "person",
  email: p.email,
  name: p.name,
  role: p.role,
  grants: p.grants,
  sessionId,
});

export async function createPeopleSessions(store: TeamStore, opts: { pollMs?: number; now?: () => number; onError?: (e: Error) => void } = {}): Promise<PeopleSessions> {
  const now = opts.now ?? Date.now;
  const cache = new Map<string, Cached>();
  let revision = await store.revision();
  let names: Promise<ReadonlyMap<string, string>> | undefined;
  let count = await store.countPeople();
  let polling: Promise<void> | undefined;
  const revisionFns: (() => void)[] = [];

  async function refresh() {
    const r = await store.revision();
    if (r !== revision) {
      revision = r;
      cache.clear();
      names = undefined;
      count = await store.countPeople();
      for (const fn of revisionFns) fn();
    }
  }
  const timer = setInterval(() => {
    polling ??= refresh()
      .catch((e) => opts.onError?.(e as Error))
      .finally(() => (polling = undefined));
  }, opts.pollMs ?? 1000);
  timer.unref();

  const idOfSecret = (secret: string | undefined) => (secret && /^[A-Za-z0-9_-]{20,100}$/.test(secret) ? sessionHash(secret) : undefined);
  const idOf = (req: IncomingMessage) => idOfSecret(readCookie(req.headers.cookie, PERSON_COOKIE));

  return {
    idOf,
    peopleCount: () => count,
    names() {
      names ??= store.listPeople().then(
        (all) => new Map(all.map((p) => [p.email, p.name])),
        (e) => {
          names = undefined;
          throw e;
        },
      );
      return names;
    },
    refresh,
    onRevision: (fn) => void revisionFns.push(fn),
    async actorOf(req) {
      const id = idOf(req);
      if (!id) return undefined;
      const t = now();
      let hit = cache.get(id);
      if (!hit) {
        const session = await store.getSession(id);
        if (!session) return undefined;
        const person = await store.getPerson(session.email);
        if (!person || person.disabled) return undefined;
        hit = { actor: actorFromPerson(person, id.slice(0, 16)), session };
        if (cache.size > 10_000) cache.clear();
        cache.set(id, hit);
      }
      const s = hit.session;
      if (t - s.lastSeenAt > IDLE_MS || t - s.createdAt > ABSOLUTE_MS) {
        cache.delete(id);
        // When it ended, not when that was noticed (review 39a #3): at its limit.
        const expired = t - s.createdAt > ABSOLUTE_MS;
        await store.deleteSession(s.email, id, { reason: expired ? "expired" : "idle", at: expired ? s.createdAt + ABSOLUTE_MS : s.lastSeenAt + IDLE_MS }).catch(() => {});
        return undefined;
      }
      if (t - s.lastSeenAt > TOUCH_EVERY_MS) {
        s.lastSeenAt = t;
        store.touchSession(id, s.email, t).catch((e) => opts.onError?.(e as Error));
      }
      return hit.actor;
    },
    async start(person, req) {
      // Always a new secret: a session id planted before sign-in (fixation) is never promoted.
      const secret = randomBytes(32).toString("base64url");
      const t = now();
      await store.createSession({
        id: sessionHash(secret),
        email: person.email,
        createdAt: t,
        lastSeenAt: t,
        address: req.socket.remoteAddress ?? "",
        userAgent: String(req.headers["user-agent"] ?? "").slice(0, 300),
      });
      if (t % 50 === 0) store.pruneSessions(t, IDLE_MS, ABSOLUTE_MS).catch(() => {});
      return secret;
    },
    async end(req) {
      const id = idOf(req);
      if (!id) return;
      const s = cache.get(id)?.session ?? (await store.getSession(id));
      cache.delete(id);
      if (s) await store.deleteSession(s.email, id, { reason: "signed-out", at: now() });
    },
    async whyEnded(req) {
      const id = idOf(req);
      return id ? store.sessionEnd(id) : undefined;
    },
    async whyEndedBy(secret) {
      const id = idOfSecret(secret);
      return id ? store.sessionEnd(id) : undefined;
    },
    close: () => clearInterval(timer),
  };
}
