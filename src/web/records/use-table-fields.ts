/**
 * Field metadata for a table: from the fields endpoint when the upstream has it, otherwise
 * inferred from the rows we already fetched (capabilities.fields false).
 */
import { useQueries, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { AppConfig } from "../../shared/meta";
import type { FieldInfo, RecordRow } from "../../shared/records";
import { inferFields } from "./grid/values.utils";
import { fieldsQueryOptions } from "./records-queries";

export function useTableFields(config: AppConfig, db: string, table: string, rows: RecordRow[] | undefined) {
  const canAsk = config.capabilities.fields;
  const meta = config.databases.find((d) => d.id === db)?.tables.find((t) => t.slug === table);
  const pk = meta?.primaryKey;
  // A table the config does not list is explained in place; asking for it would only add a toast.
  const q = useQuery(fieldsQueryOptions(db, table, canAsk && !!meta));
  const inferred = useMemo(() => (!canAsk && rows?.length ? inferFields(rows, pk) : undefined), [canAsk, rows, pk]);
  const fields: FieldInfo[] | undefined = canAsk ? q.data?.items : inferred;
  return { fields, pk: pk ?? fields?.find((f) => f.primaryKey)?.key, error: q.error };
}

/** Fields of the other tables of the database, for the join picker (only with the endpoint). */
export function useSiblingFields(config: AppConfig, db: string, table: string) {
  const others = config.databases.find((d) => d.id === db)?.tables.filter((t) => t.slug !== table) ?? [];
  const results = useQueries({ queries: others.map((t) => fieldsQueryOptions(db, t.slug, config.capabilities.fields)) });
  return {
    tables: others.map((t) => t.slug),
    fieldsOf: (slug: string) => {
      const i = others.findIndex((t) => t.slug === slug);
      return i >= 0 ? results[i]?.data?.items : undefined;
    },
  };
}
