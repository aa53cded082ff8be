/** POST /v0/record/{db}/{table}/import (extension, contract C): the CSV file as the body. */
import { apiFetch } from "../../api-client";

export interface ImportResult {
  message: string;
  inserted: number;
  updated: number;
  created: boolean;
}

export async function importCsv(db: string, table: string, file: Blob, signal?: AbortSignal): Promise<ImportResult> {
  const res = await apiFetch(`/api/v0/record/${encodeURIComponent(db)}/${encodeURIComponent(table)}/import`, {
    method: "POST",
    headers: { "content-type": "text/csv" },
    body: file,
    signal,
  });
  return (await res.json()) as ImportResult;
}
