/** GET /api/people and a person's sessions, and GET /api/me/sessions (admins see everyone's). */
import { queryOptions } from "@tanstack/react-query";
import { api } from "../api-client";
import { teamKeys } from "./team-keys";

export interface Person {
  email: string;
  name: string;
  role: "viewer" | "editor" | "admin";
  disabled: boolean;
  sso: boolean;
  hasPassword: boolean;
  createdAt: string;
  lastSeenAt: string | null;
  /** When the invite link kept for them stops working; null when none is kept. */
  inviteExpiresAt: string | null;
  grants: { resource: string; level: "none" | "viewer" | "editor" }[];
  /** While too many wrong passwords lock them out: until when (sign-ins through this proxy). */
  lockedUntil?: string;
}
export interface SessionInfo {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  address: string;
  userAgent: string;
  current: boolean;
}

export const peopleQueryOptions = () =>
  queryOptions({ queryKey: teamKeys.people(), queryFn: ({ signal }) => api<{ items: Person[] }>("/api/people", { signal }) });

export const mySessionsQueryOptions = () =>
  queryOptions({ queryKey: teamKeys.mySessions(), queryFn: ({ signal }) => api<{ items: SessionInfo[] }>("/api/me/sessions", { signal }) });

