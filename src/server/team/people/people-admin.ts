/**
 * What can be done to people, for the `people` command and the /api/people endpoints alike:
 * each operation checks its input and answers with a plain outcome (ok, or a message that says
 * what to fix), so the CLI and the HTTP layer only present it. Every change that alters what a
 * person may do ends their sessions (the store does it, and bumps the revision proxies poll).
 */
import { createHash, randomBytes } from "node:crypto";
import { GRANT_LEVELS, isResource, ROLES, type GrantLevel, type Resource, type Role } from "../contract";
import { normalizeEmail, type PersonRow, type SessionEnd, type TeamStore } from "../store/team-store";
import { passwordProblem } from "./common-passwords";
import { hashPassword } from "./passwords";

export type Outcome<T = undefined> = { ok: true; value: T } | { ok: false; status: 400 | 404 | 409; message: string };

const fail = (status: 400 | 404 | 409, message: string): Outcome<never> => ({ ok: false, status, message });
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const INVITE_MS = 7 * 24 * 3600 * 1000;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A person as anyone but the store sees them: never a password or a hash. */
export function publicPerson(p: PersonRow) {
  return {
    email: p.email,
    name: p.name,
    role: p.role,
    disabled: p.disabled,
    sso: p.sso,
    hasPassword: p.passwordHash !== null,
    createdAt: new Date(p.createdAt).toISOString(),
    lastSeenAt: p.lastSeenAt === null ? null : new Date(p.lastSeenAt).toISOString(),
    // Whether their link still works is the page's to say (review 37b #4: an expired one looked pending).
    inviteExpiresAt: p.inviteExpiresAt === null ? null : new Date(p.inviteExpiresAt).toISOString(),
    grants: p.grants,
  };
}

export function checkEmail(raw: unknown): Outcome<string> {
  if (typeof raw !== "string" || raw.length > 254 || !EMAIL.test(raw.trim())) return fail(400, "Give an email address such as ada@example.com.");
  return { ok: true, value: normalizeEmail(raw) };
}
export function checkRole(raw: unknown): Outcome<Role> {
  return typeof raw === "string" && (ROLES as readonly string[]).includes(raw) ? { ok: true, value: raw as Role } : fail(400, `A role is one of ${ROLES.join(", ")}.`);
}
export function checkLevel(raw: unknown): Outcome<GrantLevel> {
  return typeof raw === "string" && (GRANT_LEVELS as readonly string[]).includes(raw)
    ? { ok: true, value: raw as GrantLevel }
    : fail(400, `A grant's level is one of ${GRANT_LEVELS.join(", ")}.`);
}
export function checkResource(raw: unknown): Outcome<Resource> {
  return typeof raw === "string" && isResource(raw)
    ? { ok: true, value: raw }
    : fail(400, "A grant names table:<database_id>/<table_slug> or bucket:<name>, e.g. table:demo/employees.");
}
/** Why a grant's table or bucket is not one the upstream has (undefined when it is, or the upstream listed nothing: it may be down). */
export function unknownResource(resource: Resource, known: { tables: string[]; buckets: string[] }): string | undefined {
  if (known.tables.length === 0 && known.buckets.length === 0) return undefined;
  const [kind, name] = [resource.slice(0, resource.indexOf(":")), resource.slice(resource.indexOf(":") + 1)];
  const names = kind === "table" ? known.tables : known.buckets;
  if (names.includes(name)) return undefined;
  const shown = names.length > 12 ? `${names.slice(0, 12).join(", ")} and ${names.length - 12} more` : names.join(", ") || "none";
  return `There is no ${kind} "${name}" to grant: the ${kind}s are ${shown}. Check the name; a ${kind} made later can be granted once it exists.`;
}
/**
 * What a person's name may not hold: it is one line of text (a line break split `npm run people
 * -- list`'s line, an escape sequence reached the admin's terminal: review 37a #4).
 */
// eslint-disable-next-line no-control-regex
export const NAME_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function checkName(raw: unknown, email: string): Outcome<string> {
  if (raw === undefined || raw === null || raw === "") return { ok: true, value: email.split("@")[0] };
  if (typeof raw !== "string" || raw.trim().length === 0 || raw.length > 200) return fail(400, "A name is text of 1 to 200 characters.");
  const control = NAME_CONTROL.exec(raw);
  if (control) return fail(400, `A name is one line of text: it holds a control character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}, such as a line break or a tab). Remove it and try again.`);
  return { ok: true, value: raw.trim() };
}

export function createPeopleAdmin(store: TeamStore, now: () => number = Date.now) {
  const need = async (email: string): Promise<Outcome<PersonRow>> => {
    const p = await store.getPerson(email);
    return p ? { ok: true, value: p } : fail(404, `Nobody signs in as ${email}.`);
  };
  return {
    async add(input: { email: unknown; name?: unknown; role: unknown; password?: string; sso?: boolean }): Promise<Outcome<PersonRow>> {
      const email = checkEmail(input.email);
      if (!email.ok) return email;
      const role = checkRole(input.role);
      if (!role.ok) return role;
      const name = checkName(input.name, email.value);
      if (!name.ok) return name;
      let passwordHash: string | null = null;
      if (input.password !== undefined) {
        const problem = passwordProblem(input.password, email.value);
        if (problem) return fail(400, problem);
        passwordHash = await hashPassword(input.password);
      }
      const added = await store.addPerson({ email: email.value, name: name.value, role: role.value, passwordHash, sso: !!input.sso }, now());
      // Said with what to do instead: they are in the list, and a link is one reset away (review 37b #2).
      if (!added) return fail(409, `${email.value} already has an account here. To send them a link to set a password, reset it: "Reset password" on their row of the People page, or npm run people -- reset-password ${email.value} --invite.`);
      return need(email.value);
    },
    async setPassword(emailRaw: unknown, password: string): Promise<Outcome<PersonRow>> {
      const email = checkEmail(emailRaw);
      if (!email.ok) return email;
      const problem = passwordProblem(password, email.value);
      if (problem) return fail(400, problem);
      const p = await store.updatePerson(email.value, { passwordHash: await hashPassword(password) }, { reason: "password-set", at: now() });
      return p ? { ok: true, value: p } : fail(404, `Nobody signs in as ${email.value}.`);
    },
    async update(emailRaw: unknown, patch: { name?: unknown; role?: unknown; disabled?: unknown }): Promise<Outcome<PersonRow>> {
      const email = checkEmail(emailRaw);
      if (!email.ok) return email;
      const out: { name?: string; role?: Role; disabled?: boolean } = {};
      if (patch.name !== undefined) {
        const n = checkName(patch.name, email.value);
        if (!n.ok) return n;
        out.name = n.value;
      }
      if (patch.role !== undefined) {
        const r = checkRole(patch.role);
        if (!r.ok) return r;
        out.role = r.value;
      }
      if (patch.disabled !== undefined) {
        if (typeof patch.disabled !== "boolean") return fail(400, "disabled is true or false.");
        out.disabled = patch.disabled;
      }
      const before = await need(email.value);
      if (!before.ok) return before;
      // A role change or a disable ends the person's sessions; a new name does not.
      const ends: SessionEnd | undefined =
        out.disabled === true ? { reason: "disabled", at: now() } : out.role !== undefined && out.role !== before.value.role ? { reason: "access-changed", at: now() } : undefined;
      const p = await store.updatePerson(email.value, out, ends);
      return p ? { ok: true, value: p } : fail(404, `Nobody signs in as ${email.value}.`);
    },
    /** `known`: the tables and buckets the upstream has now, when it answered (a typo is said, not granted). */
    async grant(emailRaw: unknown, resourceRaw: unknown, levelRaw: unknown, known?: { tables: string[]; buckets: string[] }): Promise<Outcome<PersonRow>> {
      const email = checkEmail(emailRaw);
      if (!email.ok) return email;
      const resource = checkResource(resourceRaw);
      if (!resource.ok) return resource;
      const unknown = known && unknownResource(resource.value, known);
      if (unknown) return fail(400, unknown);
      const level = checkLevel(levelRaw);
      if (!level.ok) return level;
      if (!(await store.setGrant(email.value, resource.value, level.value))) return fail(404, `Nobody signs in as ${email.value}.`);
      return need(email.value);
    },
    async revokeGrant(emailRaw: unknown, resourceRaw: unknown): Promise<Outcome<PersonRow>> {
      const email = checkEmail(emailRaw);
      if (!email.ok) return email;
      const resource = checkResource(resourceRaw);
      if (!resource.ok) return resource;
      const p = await need(email.value);
      if (!p.ok) return p;
      if (!(await store.removeGrant(email.value, resource.value))) return fail(404, `${email.value} has no grant on ${resource.value}.`);
      return need(email.value);
    },
    /**
     * A one-time link that sets the password (an invite, or a reset); the token is shown once and
     * stored hashed. For someone who has a password this is a reset: the password stops working
     * and their sessions end now, not when the link is used (it may be why it is reset), `reset`.
     */
    async invite(emailRaw: unknown): Promise<Outcome<{ token: string; person: PersonRow; reset: boolean; expiresAt: number }>> {
      const email = checkEmail(emailRaw);
      if (!email.ok) return email;
      const p = await need(email.value);
      if (!p.ok) return p;
      const reset = p.value.passwordHash !== null;
      const person = reset ? ((await store.updatePerson(email.value, { passwordHash: null }, { reason: "password-reset", at: now() })) ?? p.value) : p.value;
      const token = randomBytes(24).toString("base64url");
      const expiresAt = now() + INVITE_MS;
      await store.createInvite(hashToken(token), email.value, expiresAt);
      // The person as they are now: with the link just made (review 39a #7: null beside it).
      return { ok: true, value: { token, person: { ...person, inviteExpiresAt: expiresAt }, reset, expiresAt } };
    },
    get: (email: string) => store.getPerson(normalizeEmail(email)),
    list: () => store.listPeople(),
  };
}

export type PeopleAdmin = ReturnType<typeof createPeopleAdmin>;
