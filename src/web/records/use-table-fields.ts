/**
 * Field metadata for a table, by precedence (issue 13 item 2): the `fields` endpoint when the
 * upstream has it; otherwise the Fields the config file declares, then the Fields learnt from
 * earlier answers (known-fields-store.ts, kept across pages and reloads), then the names the
 * view itself mentions. Nothing here depends on the current page alone: a filter that matches
 * nothing, a page of nulls or a hidden column keeps every known Field and its type.
 */
import { useQueries, useQuery } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import type { AppConfig } from "../../shared/meta";
import type { FieldInfo, RecordRow } from "../../shared/records";
import { knownFieldsActions, selectKnownFields, useKnownFieldsStore } from "./known-fields-store";
import { fieldsFromNames, fieldsFromRows, type KnownField, mergeKnownFields, resolveFields } from "./known-fields.utils";
import { fieldsProbeQueryOptions, fieldsQueryOptions } from "./fields-list-query";

const tableMeta = (config: AppConfig, db: string, table: string) =>
  config.databases.find((d) => d.id === db)?.tables.find((t) => t.slug === table);

/** Splits learnt Fields into the base table's and each joined table's ("departments.head"). */
function byTable(table: string, fields: readonly KnownField[]): Record<string, KnownField[]> {
  const out: Record<string, KnownField[]> = { [table]: [] };
  for (const f of fields) {
    const dot = f.key.indexOf(".");
    if (dot < 0) out[table]!.push(f);
    else (out[f.key.slice(0, dot)] ??= []).push({ ...f, key: f.key.slice(dot + 1), primaryKey: false, nullable: true });
  }
  return out;
}

export function useTableFields(
  config: AppConfig,
  db: string,
  table: string,
  rows: RecordRow[] | undefined,
  /** Field names the view names (filter, sort, columns), known even before any row shows them. */
  mentioned: readonly string[] = [],
) {
  const canAsk = config.capabilities.fields;
  const meta = tableMeta(config, db, table);
  const pk = meta?.primaryKey;
  // A table the config does not list is explained in place; asking for it would only add a toast.
  const q = useQuery(fieldsQueryOptions(db, table, canAsk && !!meta));
  const remembered = useKnownFieldsStore(selectKnownFields(db, table));
  const fromRows = useMemo(() => (!canAsk && rows?.length ? fieldsFromRows(rows, pk) : []), [canAsk, rows, pk]);
  // The view may select only some columns: one unselected Record teaches the rest.
  const probe = useQuery(fieldsProbeQueryOptions(db, table, !canAsk && !!meta));
  const fromProbe = useMemo(() => (probe.data?.items.length ? fieldsFromRows(probe.data.items, pk) : []), [probe.data, pk]);
  useEffect(() => {
    if (fromProbe.length) knownFieldsActions.learn(db, byTable(table, fromProbe));
  }, [db, table, fromProbe]);

  // What this answer taught is remembered for the next page, view and reload.
  useEffect(() => {
    if (fromRows.length) knownFieldsActions.learn(db, byTable(table, fromRows));
  }, [db, table, fromRows]);

  const mentionedKey = mentioned.join("\n");
  const fields: FieldInfo[] | undefined = useMemo(() => {
    if (canAsk) return q.data?.items;
    const split = byTable(table, fromRows);
    const learnt = mergeKnownFields(mergeKnownFields(remembered, split[table] ?? []), fieldsFromNames(mentionedKey ? mentionedKey.split("\n") : [], pk));
    const out = resolveFields(undefined, meta?.fields, learnt, pk);
    // Joined keys of this answer stay on the view (the join's own Fields come from its table).
    for (const f of fromRows) if (f.key.includes(".") && !out.some((o) => o.key === f.key)) out.push(f);
    return out.length ? out : undefined;
  }, [canAsk, q.data, table, fromRows, remembered, mentionedKey, pk, meta?.fields]);
  return { fields, pk: pk ?? fields?.find((f) => f.primaryKey)?.key, error: q.error };
}

/** Fields of the other tables of the database, for the join picker and joined columns. */
export function useSiblingFields(config: AppConfig, db: string, table: string) {
  const others = config.databases.find((d) => d.id === db)?.tables.filter((t) => t.slug !== table) ?? [];
  const canAsk = config.capabilities.fields;
  // combine keeps its answer's identity until an answer changes, so memoized columns hold.
  const answers = useQueries({
    queries: others.map((t) => fieldsQueryOptions(db, t.slug, canAsk)),
    combine: (rs) => rs.map((r) => r.data?.items),
  });
  const tables = useKnownFieldsStore((s) => s.tables);
  const declared = config.databases.find((d) => d.id === db)?.tables;
  const bySlug = useMemo(() => {
    const m = new Map<string, FieldInfo[] | undefined>();
    for (const [i, t] of (declared ?? []).filter((x) => x.slug !== table).entries()) {
      if (canAsk) m.set(t.slug, answers[i]);
      else {
        const out = resolveFields(undefined, t.fields, tables[`${db}/${t.slug}`] ?? [], t.primaryKey);
        m.set(t.slug, out.length ? out : undefined);
      }
    }
    return m;
  }, [declared, db, table, canAsk, tables, answers]);
  return {
    tables: others.map((t) => t.slug),
    fieldsOf: (slug: string): FieldInfo[] | undefined => bySlug.get(slug),
  };
}
