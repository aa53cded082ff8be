/**
 * People (admins): everyone who signs in, their role, status and last visit; add a person with
 * a one-time invite link (shown once, to copy and send), change a role, grants per table and
 * bucket, disable or enable, a new link to reset a password, and end someone's sessions.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import type { AppConfig } from "../../shared/meta";
import { configQueryOptions, configResources } from "../app/config-get-query";
import { ConfirmDialog } from "../ui/Dialog";
import { toast } from "../ui/toast";
import { meQueryOptions } from "./me-get-query";
import { usePeopleMutation } from "./people-mutation";
import { type Person, peopleQueryOptions } from "./people-list-query";
import { accessChangeNote, personStatus, signInNote } from "./people.utils";
import { formatWhen } from "./SessionsTable";
import { ApplySelect } from "./ApplySelect";
import { handOverToPeople } from "./session-ended";

const ROLES = ["viewer", "editor", "admin"] as const;
const LEVELS = ["none", "viewer", "editor"] as const;

export function PeoplePage() {
  const me = useQuery(meQueryOptions()).data;
  const people = useQuery({ ...peopleQueryOptions(), enabled: !!me?.may.managePeople });
  const config = useQuery(configQueryOptions()).data;
  const [invite, setInvite] = useState<{ email: string; url: string; until?: string; reset?: boolean; first?: boolean; again?: boolean } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  if (me && !me.may.managePeople) {
    return (
      <div className="team-page" role="alert">
        <h1>People</h1>
        <p>Managing people needs the admin role; your role is {me.role}.</p>
      </div>
    );
  }
  if (invite?.first) {
    // The first person is added and sign-in is on: this tab is nobody now, so the list, the form
    // and "nobody signs in yet" are past (they showed beside the link with a red "sign in
    // first": review 30b #6). The link is what is left to do.
    return (
      <div className="team-page">
        <h1>People</h1>
        <InviteLink key={invite.url} email={invite.email} url={invite.url} until={invite.until} first onDone={() => window.location.assign("/login")} />
      </div>
    );
  }
  return (
    <div className="team-page">
      <h1>People</h1>
      {me?.mode !== "people" && (
        <p className="notice">
          Nobody signs in yet. Adding the first person turns sign-in on: everyone, you included, then signs in as themselves. Add yourself as an admin first
          and open your invite link.
        </p>
      )}
      {/* Only once it is known whether this is the first person: the form's role starts from it
          (admin for the first, else viewer), and a form drawn while that was loading started,
          and stayed, on admin (review 32b #1). Keyed by it, so a change of mode starts afresh. */}
      {me ? (
        <AddPerson
          key={me.mode}
          first={me.mode !== "people"}
          onInvite={(email, url, until) => setInvite({ email, url, until, first: me.mode !== "people" })}
        />
      ) : (
        <p className="muted" role="status">
          Loading…
        </p>
      )}
      {invite && <InviteLink key={invite.url} email={invite.email} url={invite.url} until={invite.until} reset={invite.reset} first={invite.first} again={invite.again} onDone={() => setInvite(null)} />}
      {people.isError && <p className="error-text">{people.error.message}</p>}
      {/* Nobody added yet: no empty table under the form (the notice above says what to do). */}
      {people.data && people.data.items.length > 0 && (
        <table className="team-table people-table">
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Last seen</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {people.data.items.map((p) => (
              <PersonRow
                key={p.email}
                person={p}
                self={p.email === me?.email}
                open={open === p.email}
                onToggle={() => setOpen((o) => (o === p.email ? null : p.email))}
                config={config}
                onInvite={(url, reset, until) => setInvite({ email: p.email, url, until, reset, again: true })}
              />
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function AddPerson({ first, onInvite }: { first: boolean; onInvite(email: string, url: string, until?: string): void }) {
  const change = usePeopleMutation({ handlesErrors: true });
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  // The first person manages the rest: an admin unless chosen otherwise (a viewer first left
  // nobody able to manage people in the app).
  const [role, setRole] = useState<(typeof ROLES)[number]>(first ? "admin" : "viewer");
  const [error, setError] = useState("");
  const emailRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  return (
    <form
      className="add-person"
      aria-label="Add a person"
      onSubmit={(e) => {
        e.preventDefault();
        if (change.isPending) return;
        setError("");
        // This add turns sign-in on: this tab's next requests are refused as from nobody, which
        // is no ended session to announce (the invite link went under that notice).
        if (first) handOverToPeople();
        change.mutate(
          { kind: "add", email, name, role },
          {
            onSuccess: (r) => {
              onInvite(email.trim().toLowerCase(), `${window.location.origin}${r.inviteUrl}`, r.inviteExpiresAt);
              setEmail("");
              setName("");
            },
            onError: (err) => {
              setError(err.message);
              // What to fix is the email (taken, or not one): the focus goes there, not to the page.
              emailRef.current?.focus();
              // Nobody was added: sign-in is still off, and this tab still the single user.
              if (first) handOverToPeople(false);
            },
          },
        );
      }}
    >
      <label>
        Email
        <input
          ref={emailRef}
          type="email"
          required
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setError("");
          }}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
      </label>
      <label>
        Name
        <input type="text" value={name} onChange={(e) => setName(e.target.value)} placeholder="optional" />
      </label>
      <label>
        Role
        <select value={role} onChange={(e) => setRole(e.target.value as (typeof ROLES)[number])}>
          {/* The first is an admin: as anything else they would be the only one, and nobody could
              manage people from the app again (the service refuses it too; review 47b #3). */}
          {(first ? ROLES.filter((r) => r === "admin") : ROLES).map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      </label>
      {/* aria-disabled, not disabled: a button that turns disabled under the focus drops it to the page (review 37b #2). */}
      <button type="submit" className="btn btn-primary" aria-disabled={change.isPending}>
        Add and get invite link
      </button>
      {first && (
        <p className="muted small" role="status">
          The first person is an admin: they add the others, with their roles.
        </p>
      )}
      {error && (
        <p id={errorId} className="error-text" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function InviteLink({ email, url, until, reset, first, again, onDone }: { email: string; url: string; until?: string; reset?: boolean; first?: boolean; again?: boolean; onDone(): void }) {
  // The link is what the person came for: the focus goes to its Copy button (it fell to the page).
  const copyRef = useRef<HTMLButtonElement>(null);
  // Where the focus was before (the button that made the link), for Done to give it back there.
  const opener = useRef<Element | null>(document.activeElement);
  useEffect(() => copyRef.current?.focus(), []);
  // Done takes the box away: the focus goes back to what made the link, else to the person's
  // row, else to the add form (it fell to the page: review 39b #2).
  const done = () => {
    const before = opener.current;
    onDone();
    requestAnimationFrame(() => {
      const name = CSS.escape(email);
      const target =
        (before instanceof HTMLElement && before.isConnected && before !== document.body ? before : null) ??
        document.querySelector<HTMLElement>(`button[aria-label="Reset password for ${name}"], button[aria-label="New invite link for ${name}"]`) ??
        document.querySelector<HTMLElement>('form[aria-label="Add a person"] input');
      target?.focus();
    });
  };
  return (
    <div className="invite-link" role="status">
      <p>
        {reset && <>The password of <strong>{email}</strong> no longer works, and they were signed out everywhere. </>}
        {/* Until when, as the server set it: "7 days" alone was all an admin had to go by a week later (review 37b #4). */}
        One-time link for <strong>{email}</strong> to set a password ({until ? <>valid until {formatWhen(until)}</> : "valid 7 days"}; shown only now)
        {again ? <>. A link made for them before no longer works:</> : ":"}
      </p>
      {first && (
        <p className="invite-first">
          People sign in from now on, this browser too. Open the link to set your password and sign in, or copy it for the person it is for.{" "}
          <a className="btn btn-primary" href={url}>
            Open the link
          </a>
        </p>
      )}
      <div className="invite-row">
        <input type="text" readOnly value={url} aria-label={`Invite link for ${email}`} onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          className="btn btn-primary"
          ref={copyRef}
          onClick={() => navigator.clipboard.writeText(url).then(() => toast("Invite link copied", { kind: "success" }), () => toast("Copy the link by hand: the clipboard is not available", { kind: "error" }))}
        >
          Copy
        </button>
        <button type="button" className="btn" onClick={done}>
          Done
        </button>
      </div>
    </div>
  );
}

interface RowProps {
  person: Person;
  self: boolean;
  open: boolean;
  onToggle(): void;
  config: AppConfig | undefined;
  onInvite(url: string, reset: boolean, until?: string): void;
}

function PersonRow({ person: p, self, open, onToggle, config, onInvite }: RowProps) {
  const change = usePeopleMutation({ handlesErrors: true });
  const [ending, setEnding] = useState(false);
  const [resetting, setResetting] = useState(false);
  const fail = (e: Error) => toast("Not changed", { kind: "error", detail: e.message });
  const selfWhy = "You cannot change your own role or disable yourself; ask another admin.";
  // Counted as listed: another person's grants on what is hidden from this admin are not shown.
  const shown = self || !config ? p.grants.length : p.grants.filter((g) => configResources(config).includes(g.resource)).length;
  const status = personStatus(p);
  return (
    <>
      <tr className={p.disabled ? "disabled-person" : undefined}>
        <td>
          <strong>{p.name}</strong>
          <div className="muted small">
            {p.email} {signInNote(p, Date.now())}
          </div>
        </td>
        <td>
          <ApplySelect
            label={`Role of ${p.email}`}
            value={p.role}
            disabled={self}
            title={self ? selfWhy : undefined}
            aria-label={`${p.disabled ? "Enable" : "Disable"} ${p.email}`}
            onApply={(value) => {
              const role = value as Person["role"];
              change.mutate(
                { kind: "update", email: p.email, patch: { role } },
                // A new role ends their sessions (as a grant does): said, so nobody wonders why they were signed out.
                { onSuccess: () => toast(`${p.email} is now ${/^[aeiou]/.test(role) ? "an" : "a"} ${role}`, { kind: "success", detail: accessChangeNote(p, "role") }), onError: fail },
              );
            }}
          >
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </ApplySelect>
        </td>
        <td>
          {status === "disabled" ? <span className="badge badge-danger">disabled</span> : status === "locked" ? <span className="badge badge-warn">locked</span> : <span className="badge">{status}</span>}
          {p.lockedUntil && !p.disabled && (
            <div className="muted small" data-testid="person-locked">
              Too many wrong passwords: sign-in refused until {formatWhen(p.lockedUntil)}, or until they set a new password through the link Reset password gives.
            </div>
          )}
        </td>
        <td>{formatWhen(p.lastSeenAt)}</td>
        <td>
          <div className="row-actions">
          {/* Each names its person (the visible words first): the same four names on every row said nothing of whom. */}
          <button type="button" className="btn" aria-expanded={open} onClick={onToggle} aria-label={`Grants${shown ? ` (${shown})` : ""} of ${p.email}`}>
            Grants{shown ? ` (${shown})` : ""}
          </button>
          <button
            type="button"
            className="btn"
            disabled={self}
            title={self ? selfWhy : undefined}
            aria-label={`${p.disabled ? "Enable" : "Disable"} ${p.email}`}
            onClick={() =>
              change.mutate(
                { kind: "update", email: p.email, patch: { disabled: !p.disabled } },
                { onSuccess: () => toast(p.disabled ? `Enabled ${p.email}: they can sign in again` : `Disabled ${p.email}: signed out everywhere, and cannot sign in`, { kind: "success" }), onError: fail },
              )
            }
          >
            {p.disabled ? "Enable" : "Disable"}
          </button>
          <button type="button" className="btn" aria-label={`${p.hasPassword ? "Reset password" : "New invite link"} for ${p.email}`} onClick={() => (p.hasPassword ? setResetting(true) : change.mutate({ kind: "invite", email: p.email }, { onSuccess: (r) => onInvite(`${window.location.origin}${r.inviteUrl}`, !!r.reset, r.inviteExpiresAt), onError: fail }))}>
            {p.hasPassword ? "Reset password" : "New invite link"}
          </button>
          <button type="button" className="btn" aria-label={`End sessions of ${p.email}`} onClick={() => setEnding(true)}>
            End sessions
          </button>
          </div>
          {resetting && (
            <ConfirmDialog
              title={`Reset ${p.email}'s password?`}
              confirmLabel="Reset password"
              danger
              busy={change.isPending}
              onCancel={() => setResetting(false)}
              onConfirm={() =>
                change.mutate(
                  { kind: "invite", email: p.email },
                  { onSuccess: (r) => onInvite(`${window.location.origin}${r.inviteUrl}`, !!r.reset, r.inviteExpiresAt), onError: fail, onSettled: () => setResetting(false) },
                )
              }
            >
              <p>
                Their password stops working now and every session of {p.name || p.email} ends. You get a one-time link (valid 7 days) for them to set a new password.
              </p>
            </ConfirmDialog>
          )}
          {ending && (
            <ConfirmDialog
              title={`Sign ${p.email} out everywhere?`}
              confirmLabel="End their sessions"
              danger
              busy={change.isPending}
              onCancel={() => setEnding(false)}
              onConfirm={() =>
                change.mutate(
                  { kind: "end-sessions", email: p.email },
                  { onSuccess: () => toast(`Signed ${p.email} out everywhere`, { kind: "success" }), onError: fail, onSettled: () => setEnding(false) },
                )
              }
            >
              <p>Every session of {p.name || p.email} ends now: their open tabs go to the sign-in page. They can sign in again at once.</p>
            </ConfirmDialog>
          )}
        </td>
      </tr>
      {open && config && (
        <tr className="grants-row">
          <td colSpan={5}>
            <Grants person={p} config={config} self={self} />
          </td>
        </tr>
      )}
    </>
  );
}

function Grants({ person, config, self }: { person: Person; config: AppConfig; self: boolean }) {
  const change = usePeopleMutation({ handlesErrors: true });
  const listed = configResources(config);
  // One's own grants on what they hide are listed too (review 49b #4: "Grants (2)" opened on none
  // of the two); another person's on what is hidden from this admin are not (review 50b #4).
  const resources = self ? [...listed, ...person.grants.map((g) => g.resource).filter((r) => !listed.includes(r))] : listed;
  const levelOf = (r: string) => person.grants.find((g) => g.resource === r)?.level ?? "";
  return (
    // One's own grants are another admin's to change (review 48a #2: an admin could give back to
    // themselves a table taken away from them).
    <fieldset className="grants" disabled={self}>
      <legend>
        Grants of {person.email} (default: what the role {person.role} allows). {self ? "You cannot change your own grants; ask another admin." : "Changing a grant signs them out."}
      </legend>
      {person.role === "admin" && (
        // Admins manage people: one can always add a person with the access taken from them.
        <p className="muted">
          For an admin, none hides a table or bucket from their views; it does not keep them out on purpose, since admins can add people. To keep someone out, give them the editor or viewer role with that grant.
        </p>
      )}
      <ul>
        {resources.map((r) => (
          <li key={r}>
            <label>
              <span className="grant-name">{r.replace(/^table:/, "table ").replace(/^bucket:/, "bucket ")}</span>
              <ApplySelect
                label={`Grant of ${person.email} on ${r.replace(/^table:/, "table ").replace(/^bucket:/, "bucket ")}`}
                value={levelOf(r)}
                onApply={(level) => {
                  const where = r.replace(/^table:/, "table ").replace(/^bucket:/, "bucket ");
                  change.mutate(
                    level ? { kind: "grant", email: person.email, resource: r, level: level as (typeof LEVELS)[number] } : { kind: "revoke-grant", email: person.email, resource: r },
                    {
                      onSuccess: () =>
                        toast(level ? `${person.email} now has ${level === "none" ? "no access" : level} on ${where}` : `${person.email} has their role's access on ${where} again`, {
                          kind: "success",
                          detail: accessChangeNote(person, "grant"),
                        }),
                      onError: (err) => toast("Grant not changed", { kind: "error", detail: err.message }),
                    },
                  );
                }}
              >
                <option value="">as the role</option>
                {LEVELS.map((l) => (
                  <option key={l} value={l}>
                    {l}
                  </option>
                ))}
              </ApplySelect>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
