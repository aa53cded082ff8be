/**
 * GET /api/me: who is signed in and what they may do. The app disables what the person cannot
 * use from `may` and decides nothing itself: the proxy refuses anyway (403).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../api-client";
import { teamKeys } from "./team-keys";

export type Role = "viewer" | "editor" | "admin";
export interface MayOn {
  read: boolean;
  write: boolean;
  delete: boolean;
}
export interface Me {
  email: string;
  name: string;
  role: Role;
  grants: { resource: string; level: "none" | "viewer" | "editor" }[];
  mode: "people" | "password" | "single-user";
  may: { managePeople: boolean; readActivity: boolean; tables: Record<string, MayOn>; buckets: Record<string, MayOn> };
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: teamKeys.me(),
    queryFn: ({ signal }) => api<Me>("/api/me", { signal }),
    staleTime: 60_000,
    meta: { handlesErrors: true },
  });

const NONE: MayOn = { read: false, write: false, delete: false };
// Until /api/me answers nothing is offered that may turn out to be refused.
const LOADING: MayOn = NONE;

/** What the signed-in person may do, with the sentence to show where they may not. */
export function useMay() {
  const me = useQuery(meQueryOptions()).data;
  const on = (kind: "table" | "bucket", name: string): MayOn & { why: (what: "change" | "delete") => string } => {
    const may = me ? ((kind === "table" ? me.may.tables : me.may.buckets)[name] ?? NONE) : LOADING;
    return {
      ...may,
      why: (what) =>
        me
          ? `Your role (${me.role}${me.grants.some((g) => g.resource === `${kind}:${name}`) ? `, with a grant on this ${kind}` : ""}) cannot ${what} ${kind === "table" ? "Records of table" : "files in bucket"} ${name}.`
          : "Checking what you may do…",
    };
  };
  return {
    me,
    table: (db: string, table: string) => on("table", `${db}/${table}`),
    bucket: (name: string) => on("bucket", name),
  };
}

