/**
 * The team store seam: people, grants, sessions and invites, behind one small async interface
 * with two implementations (as engines/ does for Records): an embedded file in DATA_DIR
 * (sqlite-store.ts) and PostgreSQL when BASEBOARD_DATABASE_URL is set (postgres-store.ts), so
 * that several proxies share people, grants and revocations. Nothing above the seam asks which.
 *
 * `revision()` is a counter every change that can end a session bumps (disable, role, grants,
 * password, a revoked session): proxies poll it (≤ 1 s) and drop what they cached when it moves,
 * which is how a change made on one proxy, or by the `people` command, reaches all of them.
 */
import type { Grant, GrantLevel, Resource, Role } from "../contract";

export interface PersonRow {
  email: string;
  name: string;
  role: Role;
  disabled: boolean;
  /** argon2id PHC string; null for people who sign in only through SSO or have not set one yet. */
  passwordHash: string | null;
  sso: boolean;
  createdAt: number;
  lastSeenAt: number | null;
  grants: Grant[];
  /** When the invite link made for them last stops working (null: none is kept, used or never made). */
  inviteExpiresAt: number | null;
}

export interface SessionRow {
  /** sha256 of the cookie's secret, hex: a leaked store does not hand out sessions. */
  id: string;
  email: string;
  createdAt: number;
  lastSeenAt: number;
  address: string;
  userAgent: string;
}

/** Why a session ended, kept for 7 days so that its cookie's next request can say so (review 37b #1). */
export type SessionEndReason = "signed-out" | "signed-out-everywhere" | "ended-by-self" | "ended-by-admin" | "password-reset" | "password-set" | "disabled" | "access-changed" | "idle" | "expired";
export interface SessionEnd {
  reason: SessionEndReason;
  at: number;
  /** Whose it was (as kept): what is said may depend on them now (enabled again since, say). */
  email?: string;
}

export interface NewPerson {
  email: string;
  name: string;
  role: Role;
  passwordHash: string | null;
  sso: boolean;
}

export interface TeamStore {
  readonly kind: "embedded" | "postgres";
  countPeople(): Promise<number>;
  /** Resolves when the store answers a trivial query (for /api/health); rejects when it cannot. */
  ping(): Promise<void>;
  getPerson(email: string): Promise<PersonRow | undefined>;
  listPeople(): Promise<PersonRow[]>;
  /** False when the email is taken. */
  addPerson(p: NewPerson, now: number): Promise<boolean>;
  /** Undefined when there is no such person. Ends their sessions, for that reason, when `endSessions` is given. */
  updatePerson(email: string, patch: Partial<Pick<PersonRow, "name" | "role" | "disabled" | "passwordHash">>, endSessions?: SessionEnd): Promise<PersonRow | undefined>;
  /** Both end the person's sessions ("access-changed"). */
  setGrant(email: string, resource: Resource, level: GrantLevel): Promise<boolean>;
  removeGrant(email: string, resource: Resource): Promise<boolean>;

  createSession(s: SessionRow): Promise<void>;
  getSession(id: string): Promise<SessionRow | undefined>;
  /** Records activity (the idle timeout and "last seen"); callers throttle it. */
  touchSession(id: string, email: string, at: number): Promise<void>;
  listSessions(email: string): Promise<SessionRow[]>;
  /** Ends one session of that person (false when none). */
  deleteSession(email: string, id: string, end: SessionEnd): Promise<boolean>;
  deleteSessionsOf(email: string, end: SessionEnd): Promise<number>;
  /** Why the session with this id ended, while that is kept (7 days); undefined otherwise. */
  sessionEnd(id: string): Promise<SessionEnd | undefined>;
  /**
   * Drops sessions past their idle or absolute limit at `now` (keeping why, and when: at the
   * limit), and reasons kept longer than `absoluteMs`.
   */
  pruneSessions(now: number, idleMs: number, absoluteMs: number): Promise<void>;

  createInvite(tokenHash: string, email: string, expiresAt: number): Promise<void>;
  /** The email the invite is for, once: the invite is gone after. Undefined when unknown or expired. */
  takeInvite(tokenHash: string, now: number): Promise<string | undefined>;
  /** Whether an unexpired invite exists (the page shows the form only then). */
  peekInvite(tokenHash: string, now: number): Promise<string | undefined>;

  revision(): Promise<number>;
  close(): Promise<void>;
}

/**
 * An email as people are found by it: trimmed, in Unicode's composed form (NFC), lower case.
 * Without NFC, "á" typed as one character and as "a" + a combining accent made two accounts that
 * look the same (review 57a #1: an admin and a viewer), and a provider sending the other form
 * reached the other one.
 */
export const normalizeEmail = (email: string) => email.trim().normalize("NFC").toLowerCase();
