/**
 * What the selection bar does to many entries at once (issue 22.1). Files are deleted one
 * request each (four at a time); folders, moves and copies run as the service's storage jobs,
 * one after another, each followed until it ends. Cancelling stops starting new ones and cancels
 * the running job; what was done stays done, and the outcome lists what failed and why.
 */
import { api, apiFetch } from "../../api-client";
import { forgetUpload } from "../local-uploads";
import { signUrl } from "../object-sign-mutation";
import { encodeKeyPath } from "../paths.utils";
import { bucketPath } from "../storage-keys";
import { type JobAction, type JobSpec, type JobStatus, jobsPath } from "../jobs/storage-job-mutation";
import { destinationOf } from "./selection.utils";
import { SIGN_MANY_MAX, type SignManyRequest, type SignManyResponse } from "../../../shared/storage";

export interface BulkOutcome {
  done: string[];
  failed: { item: string; message: string }[];
  cancelled: boolean;
}

export interface BulkProgress {
  /** Items finished (done or failed). */
  finished: number;
  total: number;
  /** Within the running job: its own done/total, for a folder of many files. */
  job?: { done: number; total: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts a job and follows it to its end; a cancelled signal cancels the job too. */
async function runJob(bucket: string, spec: JobSpec, signal: AbortSignal, onJob: (j: JobStatus) => void): Promise<JobStatus> {
  let job = await api<JobStatus>(jobsPath(bucket), { method: "POST", json: spec });
  onJob(job);
  // Asked again soon, then less often: a one-file job ends in milliseconds, and a fixed 250 ms
  // wait made a selection of files move at 2 a second (review 57b #2).
  let polls = 0;
  while (job.state === "running") {
    if (signal.aborted) {
      job = await api<JobStatus>(`${jobsPath(bucket)}/${encodeURIComponent(job.id)}`, { method: "DELETE" });
      break;
    }
    await sleep(Math.min(250, 10 * 2 ** polls++));
    job = await api<JobStatus>(`${jobsPath(bucket)}/${encodeURIComponent(job.id)}`);
    onJob(job);
  }
  return job;
}

export async function deleteItems(bucket: string, items: readonly string[], signal: AbortSignal, onProgress: (p: BulkProgress) => void): Promise<BulkOutcome> {
  const out: BulkOutcome = { done: [], failed: [], cancelled: false };
  const files = items.filter((i) => !i.endsWith("/"));
  const folders = items.filter((i) => i.endsWith("/"));
  const report = (job?: BulkProgress["job"]) => onProgress({ finished: out.done.length + out.failed.length, total: items.length, job });
  let next = 0;
  const worker = async () => {
    while (next < files.length && !signal.aborted) {
      const key = files[next++];
      try {
        await apiFetch(`/api/v0/storage/object/${bucketPath(bucket)}/${encodeKeyPath(key)}`, { method: "DELETE" });
        await forgetUpload(bucket, key).catch(() => undefined);
        out.done.push(key);
      } catch (e) {
        out.failed.push({ item: key, message: (e as Error).message });
      }
      report();
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, files.length) }, worker));
  for (const folder of folders) {
    if (signal.aborted) break;
    await followJob(bucket, { action: "delete", from: folder }, folder, signal, out, report);
  }
  out.cancelled = signal.aborted && out.done.length + out.failed.length < items.length;
  return out;
}

export async function moveItems(
  bucket: string,
  items: readonly string[],
  folder: string,
  action: Exclude<JobAction, "delete">,
  overwrite: boolean,
  signal: AbortSignal,
  onProgress: (p: BulkProgress) => void,
): Promise<BulkOutcome> {
  const out: BulkOutcome = { done: [], failed: [], cancelled: false };
  const report = (job?: BulkProgress["job"]) => onProgress({ finished: out.done.length + out.failed.length, total: items.length, job });
  const job = (item: string) => followJob(bucket, { action, from: item, to: destinationOf(item, folder), overwrite }, item, signal, out, report);
  // Files a few at once (each its own small job), as deletes go; a folder's job, large, alone.
  const files = items.filter((i) => !i.endsWith("/"));
  let next = 0;
  const worker = async () => {
    while (next < files.length && !signal.aborted) await job(files[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(MOVES_AT_ONCE, files.length) }, worker));
  for (const item of items.filter((i) => i.endsWith("/"))) {
    if (signal.aborted) break;
    await job(item);
  }
  out.cancelled = signal.aborted && out.done.length + out.failed.length < items.length;
  return out;
}

/** Files moved or copied at once (review 57b #2: one after another, 200 files took 93 s). */
const MOVES_AT_ONCE = 6;

async function followJob(bucket: string, spec: JobSpec, item: string, signal: AbortSignal, out: BulkOutcome, report: (job?: BulkProgress["job"]) => void) {
  try {
    const job = await runJob(bucket, spec, signal, (j) => report({ done: j.done, total: j.total }));
    if (job.state === "done") out.done.push(item);
    else if (job.state !== "cancelled") out.failed.push({ item, message: job.error ?? `the job ${job.state}` });
  } catch (e) {
    out.failed.push({ item, message: (e as Error).message });
  }
  report();
}

/** Asks the proxy for a one-time zip link and lets the browser download it (streamed, not held here). */
export async function downloadZip(bucket: string, items: readonly string[], name: string): Promise<void> {
  const { url } = await api<{ url: string }>("/api/zip", { method: "POST", json: { bucket, items, name } });
  const a = document.createElement("a");
  a.href = url;
  a.download = `${name}.zip`;
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * One signed URL a line, in the selection's order, `onProgress` told how many are done. Where the
 * service signs many at once (signMany), SIGN_MANY_MAX a request (review 51b #4: one a file took
 * 3-18 s for 1,300 files); else one a file, six at once (review 50b #1). A file that has no URL
 * (deleted meanwhile) stops it, naming the file.
 */
export async function signedUrls(bucket: string, files: readonly { key: string; versionedKey?: string }[], expiresIn: number | undefined, onProgress?: (done: number) => void, signal?: AbortSignal, many = false): Promise<string> {
  const keys = files.map((f) => f.versionedKey || f.key);
  if (many) {
    const urls: string[] = [];
    for (let at = 0; at < keys.length; at += SIGN_MANY_MAX) {
      signal?.throwIfAborted();
      const body: SignManyRequest = { keys: keys.slice(at, at + SIGN_MANY_MAX), ...(expiresIn ? { expiresIn } : {}) };
      const { items } = await api<SignManyResponse>(`/api/v0/storage/url/sign/${bucketPath(bucket)}`, { method: "POST", json: body, signal });
      for (const item of items) {
        if (!("url" in item)) throw new Error(`${item.key}: ${item.message}`);
        urls.push(item.url);
      }
      onProgress?.(urls.length);
    }
    return urls.join("\n");
  }
  const urls: string[] = new Array(files.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < files.length) {
      signal?.throwIfAborted();
      const i = next++;
      urls[i] = await signUrl(bucket, keys[i], expiresIn, signal);
      onProgress?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(6, files.length) }, worker));
  return urls.join("\n");
}
