/**
 * The account menu in the top bar: who am I (name, email, role), my sessions, People for
 * admins, and Sign out. In the single-user mode it says so and offers People (adding the first
 * person turns on sign-in).
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useId, useRef, useState } from "react";
import { useSessionEnded } from "./session-ended";
import { meQueryOptions } from "./me-get-query";

export const initials = (name: string) =>
  name
    .split(/[\s@._-]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join("") || "?";

export function AccountMenu() {
  const me = useQuery(meQueryOptions()).data;
  const handingOver = useSessionEnded((s) => s.handingOver);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => root.current?.contains(e.target as Node) || setOpen(false);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        root.current?.querySelector<HTMLButtonElement>(".account-button")?.focus();
      }
    };
    window.addEventListener("pointerdown", onDown);
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("pointerdown", onDown);
      window.removeEventListener("keydown", onKey);
    };
  }, [open]);
  useEffect(() => {
    if (open) root.current?.querySelector<HTMLElement>(".account-menu a, .account-menu button")?.focus();
  }, [open]);
  // The first person was just added here: this tab is nobody now (not "Single user" any more).
  if (handingOver) {
    return (
      <div className="account">
        <a className="btn btn-ghost" href="/login">
          Sign in
        </a>
      </div>
    );
  }
  if (!me) return null;
  const close = () => setOpen(false);
  return (
    <div className="account" ref={root}>
      <button
        type="button"
        className="btn btn-ghost account-button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
        title={`${me.name} (${me.email}) · ${me.role}`}
      >
        <span className="avatar" aria-hidden="true">
          {initials(me.name)}
        </span>
        <span className="account-name">{me.name}</span>
      </button>
      {open && (
        <div className="account-menu" id={menuId} role="group" aria-label="Account">
          <div className="account-who">
            <strong>{me.name}</strong>
            {me.mode === "people" && <span className="muted small">{me.email}</span>}
            <span className="muted small">
              {me.mode === "people" ? `Role: ${me.role}` : me.mode === "password" ? "Shared password (admin)" : "Single user on this machine (admin)"}
            </span>
          </div>
          {me.mode === "people" && (
            <Link to="/account" className="account-item" onClick={close}>
              My sessions
            </Link>
          )}
          {me.may.managePeople && (
            <Link to="/people" className="account-item" onClick={close}>
              People
            </Link>
          )}
          {me.may.readActivity && (
            <Link to="/activity" className="account-item" onClick={close}>
              Activity
            </Link>
          )}
          {me.mode !== "single-user" && (
            <form method="post" action="/logout" className="account-signout">
              <button type="submit" className="account-item">
                Sign out
              </button>
            </form>
          )}
        </div>
      )}
    </div>
  );
}
