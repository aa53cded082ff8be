/**
 * Why a table or bucket that is not in the app's catalog is missing for this person. A grant of
 * `none` hides it from /api/config and /api/me alike, so the page asks the proxy itself, once:
 * its 403 says "You have no access to … (your grant … is none)", where a table that does not
 * exist is a 404. A link to a hidden one then says to ask for access, as the API does (review
 * 30b #5: the page said "No table", word for word as for one that does not exist).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, apiFetch } from "../api-client";
import { meQueryOptions } from "./me-get-query";
import { teamKeys } from "./team-keys";

const pathOf = (kind: "table" | "bucket", name: string) =>
  kind === "table" ? `/api/v0/record/${name.split("/").map(encodeURIComponent).join("/")}/query` : `/api/v0/storage/list/${encodeURIComponent(name)}?limit=1`;

export const hiddenProbeQueryOptions = (kind: "table" | "bucket", name: string) =>
  queryOptions({
    queryKey: teamKeys.hidden(kind, name),
    queryFn: async ({ signal }): Promise<string | null> => {
      try {
        await apiFetch(pathOf(kind, name), kind === "table" ? { method: "POST", json: { limit: 1 }, signal } : { signal });
        return null;
      } catch (e) {
        return e instanceof ApiError && e.status === 403 ? `${e.message} Ask an admin (People page) for access.` : null;
      }
    },
    staleTime: 60_000,
    retry: false,
    meta: { handlesErrors: true },
  });

/**
 * The proxy's reason when the person may not see it; null when it is simply not there (or still
 * asking: undefined). Asked only where grants exist (people signed in as themselves): a single
 * user or a shared password has none, and a name the catalog lacks is then not asked about.
 */
export function useHiddenWhy(kind: "table" | "bucket", name: string, missing: boolean): string | null | undefined {
  const people = useQuery(meQueryOptions()).data?.mode === "people";
  return useQuery({ ...hiddenProbeQueryOptions(kind, name), enabled: missing && people }).data;
}
