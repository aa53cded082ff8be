/**
 * The export's pages, off the main thread: fetch each page of the view through the proxy, turn it
 * into text, and hand the text over (transferred, not copied). The tab stays responsive however
 * many Records there are; the main thread only writes the chunks to the file.
 */
import type { FilterGroup } from "../../../shared/filter";
import type { QueryBody, QueryResult } from "../../../shared/records";
import { csvRows, csvStart, type ExportFormat, jsonClose, jsonOpen, jsonRows } from "./export-format.utils";

export interface ExportJob {
  path: string;
  body: QueryBody;
  keys: string[];
  format: ExportFormat;
  pageSize: number;
  /** Only these Records (a selection), sent in groups as `filter AND (pk = … OR …)`. */
  pkGroups?: FilterGroup[];
  /** CSV: start with a UTF-8 byte-order mark, so Excel reads Müller and García as UTF-8. */
  bom?: boolean;
  /** CSV: texts a spreadsheet would run as formulas are written after a ' (export-format.utils.ts). */
  guardFormulas?: boolean;
}

export type ExportMessage = { kind: "chunk"; data: ArrayBuffer; done: number; total: number } | { kind: "end"; done: number } | { kind: "error"; message: string };

const enc = new TextEncoder();

async function page(path: string, body: QueryBody): Promise<QueryResult> {
  const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json", "x-baseboard-client": "1" }, body: JSON.stringify(body), credentials: "same-origin" });
  if (!res.ok) {
    const text = await res.text();
    let message = `HTTP ${res.status}`;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? message;
    } catch {
      // not JSON
    }
    throw new Error(message);
  }
  return (await res.json()) as QueryResult;
}

function send(text: string, done: number, total: number) {
  const data = enc.encode(text).buffer as ArrayBuffer;
  (self as unknown as Worker).postMessage({ kind: "chunk", data, done, total } satisfies ExportMessage, [data]);
}

async function run(job: ExportJob) {
  const bodies: QueryBody[] = job.pkGroups
    ? job.pkGroups.map((g) => ({ ...job.body, filter: job.body.filter ? { and: [job.body.filter, g] } : g }))
    : [job.body];
  let done = 0;
  let total = 0;
  let first = true;
  const guard = job.guardFormulas === true;
  send(job.format === "csv" ? csvStart(job.keys, job.bom === true, guard) : jsonOpen, 0, 0);
  for (const body of bodies) {
    let skip = 0;
    for (;;) {
      const r = await page(job.path, { ...body, skip, limit: job.pageSize });
      if (skip === 0) total += r.count;
      done += r.items.length;
      send(job.format === "csv" ? csvRows(r.items, job.keys, guard) : jsonRows(r.items, job.keys, first), done, total);
      if (r.items.length) first = false;
      skip += r.items.length;
      if (r.items.length < job.pageSize || skip >= r.count) break;
    }
  }
  if (job.format === "json") send(jsonClose, done, total);
  (self as unknown as Worker).postMessage({ kind: "end", done } satisfies ExportMessage);
}

self.onmessage = (e: MessageEvent<ExportJob>) => {
  run(e.data).catch((err: Error) => (self as unknown as Worker).postMessage({ kind: "error", message: err.message } satisfies ExportMessage));
};
