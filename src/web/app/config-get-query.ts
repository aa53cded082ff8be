/** GET /api/config: the tables and buckets to show and what the upstream can do. */
import { queryOptions } from "@tanstack/react-query";
import type { AppConfig } from "../../shared/meta";
import { api } from "../api-client";
import { recordKeys } from "../records/records-keys";

export const configQueryOptions = () =>
  queryOptions({
    queryKey: recordKeys.config(),
    queryFn: ({ signal }) => api<AppConfig>("/api/config", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { handlesErrors: true },
  });

/** Every table and bucket the config lists, named as grants and filters name them ("table:demo/employees", "bucket:files"). */
export function configResources(config: AppConfig): string[] {
  return [...config.databases.flatMap((d) => d.tables.map((t) => `table:${d.id}/${t.slug}`)), ...config.buckets.map((b) => `bucket:${b.name}`)];
}
