/** How many Records match a filter (a query with limit 0: only the count comes back). */
import { queryOptions } from "@tanstack/react-query";
import type { FilterGroup } from "../../shared/filter";
import { queryRecords } from "./records-list-query";
import { recordKeys } from "./records-keys";

export const countQueryOptions = (db: string, table: string, filter: FilterGroup | undefined) =>
  queryOptions({
    queryKey: recordKeys.count(db, table, filter),
    queryFn: ({ signal }) => queryRecords(db, table, filter ? { filter, limit: 0 } : { limit: 0 }, signal).then((r) => r.count),
    meta: { handlesErrors: true },
  });
