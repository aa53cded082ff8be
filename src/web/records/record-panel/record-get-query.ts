/** One Record by primary key (with the view's join), for a panel opened on a Record not on the page. */
import { queryOptions } from "@tanstack/react-query";
import type { FieldType, JoinUnit, RecordRow } from "../../../shared/records";
import { equalCond } from "../grid/edit.utils";
import { queryRecords } from "../records-list-query";
import { recordKeys } from "../records-keys";

/** The URL holds the key as text; a number Field needs it back as a number. */
export function pkFromText(text: string, type: FieldType | undefined): string | number {
  if (type === "number" && text.trim() !== "" && Number.isFinite(Number(text))) return Number(text);
  return text;
}

export const recordGetQueryOptions = (db: string, table: string, pkField: string, pk: string | number, join: JoinUnit | undefined) =>
  queryOptions({
    queryKey: recordKeys.record(db, table, pkField, pk, join),
    queryFn: async ({ signal }): Promise<RecordRow | null> => {
      const r = await queryRecords(db, table, { filter: { and: [equalCond(pkField, pk)] }, ...(join ? { join: [join] } : {}), limit: 1 }, signal);
      return r.items[0] ?? null;
    },
    meta: { handlesErrors: true },
  });
