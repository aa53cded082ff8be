import { describe, expect, it } from "vitest";
import { formatDateTime } from "../ui/dates";
import { accessChangeNote, personStatus, signInNote } from "./people.utils";

describe("how the People page says a person signs in", () => {
  const now = Date.parse("2026-11-27T12:00:00Z");
  const person = { sso: false, hasPassword: false, inviteExpiresAt: null as string | null };
  it("tells a link that still works from one that lapsed (review 37b #4: both read 'no password yet')", () => {
    const later = "2026-12-01T09:30:00.000Z";
    const earlier = "2026-11-20T09:30:00.000Z";
    expect(signInNote({ ...person, inviteExpiresAt: later }, now)).toBe(`· invited, link valid until ${formatDateTime(later)}`);
    expect(signInNote({ ...person, inviteExpiresAt: earlier }, now)).toBe(`· invite link expired ${formatDateTime(earlier)}: make a new one`);
    expect(signInNote(person, now)).toBe("· invited, no password yet");
  });
  it("says nothing of links for those who sign in another way", () => {
    expect(signInNote({ ...person, sso: true, inviteExpiresAt: "2026-12-01T09:30:00.000Z" }, now)).toBe("· single sign-on");
    expect(signInNote({ ...person, hasPassword: true }, now)).toBe("");
  });
});

describe("status and what a change of access means (review 55b #7)", () => {
  const base = { disabled: false, sso: false, hasPassword: true, lastSeenAt: "2026-11-28T08:00:00Z" } as const;
  it("says invited until the first sign-in, locked while wrong passwords lock them out", () => {
    expect(personStatus(base)).toBe("active");
    expect(personStatus({ ...base, hasPassword: false, lastSeenAt: null })).toBe("invited");
    expect(personStatus({ ...base, sso: true, hasPassword: false, lastSeenAt: null })).toBe("active");
    expect(personStatus({ ...base, lockedUntil: "2026-11-28T09:00:00Z" })).toBe("locked");
    expect(personStatus({ ...base, disabled: true, lockedUntil: "2026-11-28T09:00:00Z" })).toBe("disabled");
  });
  it("does not say someone who never signed in was signed out", () => {
    expect(accessChangeNote({ lastSeenAt: null }, "grant")).toBe("They have it when they first sign in.");
    expect(accessChangeNote({ lastSeenAt: null }, "role")).toBe("They have the new role when they first sign in.");
    expect(accessChangeNote({ lastSeenAt: "2026-11-28T08:00:00Z" }, "grant")).toMatch(/^They were signed out/);
  });
});
