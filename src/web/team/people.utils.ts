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
