import { describe, expect, it } from "vitest";
import { formatDateTime } from "../ui/dates";
import { signInNote } from "./people.utils";

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
