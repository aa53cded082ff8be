/** What the People page says of a person, as pure functions of what GET /api/people answers. */
import { formatDateTime } from "../ui/dates";
import type { Person } from "./people-list-query";

/** What the People page says of how a person signs in (beside their email). */
export function signInNote(p: Pick<Person, "sso" | "hasPassword" | "inviteExpiresAt">, now: number): string {
  if (p.sso) return "· single sign-on";
  if (p.hasPassword) return "";
  if (p.inviteExpiresAt === null) return "· invited, no password yet";
  // An expired link looked as pending as a fresh one (review 37b #4): say which, and what to do.
  return Date.parse(p.inviteExpiresAt) <= now
    ? `· invite link expired ${formatDateTime(p.inviteExpiresAt)}: make a new one`
    : `· invited, link valid until ${formatDateTime(p.inviteExpiresAt)}`;
}

/** The Status column: disabled, locked (wrong passwords), invited (has never signed in), or active. */
export function personStatus(p: Pick<Person, "disabled" | "lockedUntil" | "sso" | "hasPassword" | "lastSeenAt">): "disabled" | "locked" | "invited" | "active" {
  if (p.disabled) return "disabled";
  if (p.lockedUntil) return "locked";
  // Review 55b #7: someone who has not yet used their invite link read "active".
  if (!p.sso && !p.hasPassword && p.lastSeenAt === null) return "invited";
  return "active";
}

/** What a change of role or grant means for the person, said in its toast. */
export function accessChangeNote(p: Pick<Person, "lastSeenAt">, what: "role" | "grant"): string {
  // Never signed in: there was no session to end (review 55b #7: "They were signed out").
  if (p.lastSeenAt === null) return `They have ${what === "role" ? "the new role" : "it"} when they first sign in.`;
  return what === "role" ? "They were signed out, and have the new role when they sign in again." : "They were signed out, and have it when they sign in again.";
}
