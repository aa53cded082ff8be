/**
 * The import's answer as the HTTP extension sends it (and `npm run import` hands the audit trail,
 * so that an import from the command line is recorded as one through the proxy is).
 */
import type { ImportResult } from "./csv-import";

export function importAnswer(result: ImportResult): string {
  const { inserted, updated, created, before, added, changed } = result;
  const counted = changed === undefined ? "" : `,"changed":${changed}`;
  const addedJson = added ? `,"added":${JSON.stringify(added)}` : "";
  // The before-images' rows are JSON the engine wrote: passed on as they are (as for an update).
  const beforeJson = before ? `,"before":{"fields":${JSON.stringify(before.fields)},"rows":${before.rowsJson}}` : "";
  return `{"message":"ok","inserted":${inserted},"updated":${updated},"created":${created}${counted}${beforeJson}${addedJson}}`;
}
