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
      why: (what) => {
        if (!me) return "Checking what you may do…";
        const things = kind === "table" ? "Records of table" : "files in bucket";
        // The grant is the reason when there is one: an editor held back by a viewer grant was
        // told their role could not (review 53b #5), which it can elsewhere.
        const grant = me.grants.find((g) => g.resource === `${kind}:${name}` && g.level !== "editor");
        if (grant) return `Your grant on ${kind} ${name} is ${grant.level === "none" ? "no access" : grant.level}, which cannot ${what} ${things} ${name}: ask an admin (People page) if you need to.`;
        return `Your role (${me.role}) cannot ${what} ${things} ${name}.`;
      },
    };
  };
  return {
    me,
    table: (db: string, table: string) => on("table", `${db}/${table}`),
    bucket: (name: string) => on("bucket", name),
  };
}

