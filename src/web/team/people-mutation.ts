/** Changes to people (admins) and to my own sessions; each refreshes what it touched. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../api-client";
import type { Person } from "./people-list-query";
import { teamKeys } from "./team-keys";

const path = (email: string) => `/api/people/${encodeURIComponent(email)}`;

export type PeopleChange =
  | { kind: "add"; email: string; name: string; role: Person["role"] }
  | { kind: "update"; email: string; patch: { name?: string; role?: Person["role"]; disabled?: boolean } }
  | { kind: "grant"; email: string; resource: string; level: "none" | "viewer" | "editor" }
  | { kind: "revoke-grant"; email: string; resource: string }
  | { kind: "invite"; email: string }
  | { kind: "end-sessions"; email: string }
  | { kind: "end-my-session"; id: string }
  | { kind: "end-my-sessions" }
  | { kind: "change-my-password"; current: string; password: string };

export function sendPeopleChange(c: PeopleChange): Promise<{ inviteUrl?: string; inviteExpiresAt?: string; reset?: boolean; otherSessionsEnded?: number }> {
  switch (c.kind) {
    case "add":
      return api("/api/people", { method: "POST", json: { email: c.email, name: c.name, role: c.role } });
    case "update":
      return api(path(c.email), { method: "PATCH", json: c.patch });
    case "grant":
      return api(`${path(c.email)}/grants`, { method: "PUT", json: { resource: c.resource, level: c.level } });
    case "revoke-grant":
      return api(`${path(c.email)}/grants/${encodeURIComponent(c.resource)}`, { method: "DELETE" });
    case "invite":
      return api(`${path(c.email)}/invite`, { method: "POST" });
    case "end-sessions":
      return api(`${path(c.email)}/sessions`, { method: "DELETE" });
    case "end-my-session":
      return api(`/api/me/sessions/${encodeURIComponent(c.id)}`, { method: "DELETE" });
    case "end-my-sessions":
      return api("/api/me/sessions", { method: "DELETE" });
    case "change-my-password":
      return api("/api/me/password", { method: "POST", json: { current: c.current, password: c.password } });
  }
}

/** `handlesErrors`: every caller says what failed itself (else the app's one "Could not save" toast does, beside it). */
export function usePeopleMutation(o: { handlesErrors?: boolean } = {}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: sendPeopleChange,
    meta: o.handlesErrors ? { handlesErrors: true } : undefined,
    onSettled: () => qc.invalidateQueries({ queryKey: teamKeys.all() }),
  });
}
