/**
 * Why sessions ended, as either team store keeps it: the same checks run on the embedded store
 * (session-ends.test.ts) and on PostgreSQL (two-proxies.pg.test.ts).
 */
import type { IncomingMessage } from "node:http";
import { expect } from "vitest";
import { ABSOLUTE_MS, createPeopleSessions, IDLE_MS, PERSON_COOKIE } from "../sessions/people-sessions";
import type { TeamStore } from "../store/team-store";

const requestWith = (secret: string) => ({ headers: { cookie: `${PERSON_COOKIE}=${secret}` }, socket: { remoteAddress: "127.0.0.1" } }) as unknown as IncomingMessage;

/** `email` must be a person of `store` who may sign in. */
export async function checkSessionEnds(store: TeamStore, email: string): Promise<void> {
  let now = Date.now();
  const sessions = await createPeopleSessions(store, { now: () => now, pollMs: 60_000 });
  try {
    const person = (await store.getPerson(email))!;
    const open = async () => requestWith(await sessions.start(person, requestWith("x".repeat(43))));

    // Signed out, then the same cookie again: why it no longer opens a session.
    const a = await open();
    expect(await sessions.actorOf(a)).toMatchObject({ email });
    await sessions.end(a);
    expect(await sessions.actorOf(a)).toBeUndefined();
    expect(await sessions.whyEnded(a)).toEqual({ reason: "signed-out", at: now, email });

    // Idle past its limit, and past its absolute limit while in use: said to have ended at the
    // limit, not when noticed (review 39a #3).
    const opened = now;
    const idle = await open();
    const long = await open();
    now += IDLE_MS + 3_600_000;
    expect(await sessions.actorOf(idle)).toBeUndefined();
    expect(await sessions.whyEnded(idle)).toMatchObject({ reason: "idle", at: opened + IDLE_MS });
    now = opened + ABSOLUTE_MS + 86_400_000;
    expect(await sessions.actorOf(long)).toBeUndefined();
    expect(await sessions.whyEnded(long)).toMatchObject({ reason: "expired", at: opened + ABSOLUTE_MS });

    // Ended by a change to the person, for the reason given; a later reason replaces none other.
    now = Date.now();
    const b = await open();
    const c = await open();
    expect(await store.deleteSessionsOf(email, { reason: "ended-by-admin", at: now })).toBe(2);
    expect(await sessions.whyEnded(b)).toMatchObject({ reason: "ended-by-admin", at: now });
    expect(await sessions.whyEnded(c)).toMatchObject({ reason: "ended-by-admin", at: now });
    const d = await open();
    await store.setGrant(email, "table:demo/employees", "viewer");
    expect((await sessions.whyEnded(d))?.reason).toBe("access-changed");
    // The same grant again changes nothing, and ends nothing (review 39a #2).
    const same = await open();
    await store.setGrant(email, "table:demo/employees", "viewer");
    expect(await store.getSession(sessions.idOf(same)!)).toBeDefined();
    expect(await sessions.whyEnded(same)).toBeUndefined();
    await store.removeGrant(email, "table:demo/employees");
    const e = await open();
    await store.updatePerson(email, { passwordHash: null }, { reason: "password-reset", at: now });
    expect(await sessions.whyEnded(e)).toMatchObject({ reason: "password-reset", at: now });

    // Pruning keeps why for those it drops, and forgets reasons older than the absolute limit.
    const f = await open();
    const fSeen = (await store.getSession(sessions.idOf(f)!))!.lastSeenAt;
    await store.pruneSessions(Date.now() + IDLE_MS + 1000, IDLE_MS, ABSOLUTE_MS);
    expect(await sessions.whyEnded(f)).toMatchObject({ reason: "idle", at: fSeen + IDLE_MS });
    await store.pruneSessions(Date.now() + 3 * ABSOLUTE_MS, IDLE_MS, ABSOLUTE_MS);
    expect(await sessions.whyEnded(f)).toBeUndefined();
    // A cookie that never opened a session: nothing to say.
    expect(await sessions.whyEnded(requestWith("y".repeat(43)))).toBeUndefined();
  } finally {
    sessions.close();
  }
}
