/**
 * Value suggestions for a text Field in the filter builder: the service's distinct extension
 * (POST …/distinct) when the upstream has it, else the values of the pages the grid has loaded.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { DistinctResponse } from "../../../shared/record-writes";
import type { QueryResult } from "../../../shared/records";
import { api } from "../../api-client";
import { configQueryOptions } from "../../app/config-get-query";
import { recordPath } from "../record-path";
import { recordKeys } from "../records-keys";
import { type Suggestion, suggestFromRows } from "./value-suggestions.utils";

export function useValueSuggestions(db: string, table: string, key: string, prefix: string, enabled: boolean): Suggestion[] {
  const config = useQuery(configQueryOptions()).data;
  const client = useQueryClient();
  const viaService = enabled && !!config?.capabilities.distinct && !!key;
  const q = useQuery({
    queryKey: recordKeys.distinct(db, table, key, prefix),
    queryFn: ({ signal }) =>
      api<DistinctResponse>(recordPath(db, table, "distinct"), { method: "POST", json: prefix ? { key, prefix, limit: 20 } : { key, limit: 20 }, signal }),
    enabled: viaService,
    staleTime: 30_000,
    // A suggestion that cannot be had is not worth an error toast: the box still takes typing.
    meta: { handlesErrors: true },
  });
  if (!enabled || !key) return [];
  if (viaService) return q.data?.items.map((i) => i.value) ?? [];
  const pages = client
    .getQueriesData<QueryResult>({ queryKey: recordKeys.table(db, table) })
    .map(([, d]) => (d && Array.isArray(d.items) ? d.items : []));
  return suggestFromRows(pages, key, prefix);
}
