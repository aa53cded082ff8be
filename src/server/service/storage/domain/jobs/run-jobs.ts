/**
 * Runs storage jobs (issue 22.2) in the service process: one loop per job, steps of up to
 * STEP keys, each step committed with the job's progress (metadata-jobs.ts). At start-up the
 * jobs still "running" are picked up again; a cancel is seen by the next step.
 *
 * - move: rows renamed in the database, blobs untouched (all versions move, nothing is copied).
 * - copy: the newest version of each key is copied to a new blob, then recorded as the newest
 *   version of the destination; a key whose destination already has the same bytes is done.
 * - delete: rows removed with the step, then their blobs and resized variants.
 */
import { randomUUID } from "node:crypto";
import type { JobRow, JobsStore, StepOutcome } from "../../metadata-jobs";
import type { ObjectRow } from "../../metadata";
import { StorageFailure, invalid } from "../failure";
import { objectBlob, type StorageDomain } from "../storage-domain";
import { dropBlobsAfterCommit } from "../delete-object";
import { utf8Length } from "../../../../../shared/storage";
import { type JobRequest, destination, destinationTooLong, folderSelection, jobsOverlap, selectionOf } from "./job-request.utils";

/** Keys per committed step: small enough that a cancel is seen soon, big enough to be fast. */
const STEP = 200;
/** Keys per copy step: their versions read in two queries (one each took ~2.7 ms on DuckDB). */
const COPY_STEP = 64;
/** Copies hold a blob stream each: a few at once. */
const COPIES_AT_ONCE = 8;

export interface JobRunner {
  start(bucket: string, req: JobRequest): Promise<JobRow>;
  /** Picks up jobs left running by a stop (at start-up). */
  resume(): Promise<number>;
  /** Resolves when no job loop is running (tests, close). */
  idle(): Promise<void>;
  /** Resolves when job `id`'s loop has stopped (at once when none runs): a cancel waits for the copies in hand. */
  settled(id: string): Promise<void>;
  stop(): void;
}

export function createJobRunner(d: StorageDomain, jobs: JobsStore, opts: { step?: number } = {}): JobRunner {
  const moveStep = opts.step ?? STEP;
  const copyStep = Math.min(moveStep, COPY_STEP);
  const loops = new Map<string, Promise<void>>();
  let stopped = false;
  /** Job starts, one after another (see start). */
  let starting: Promise<unknown> = Promise.resolve();

  // After the commit: a crash or an unreachable store here leaves orphan blobs, which the sweep
  // removes; the step is done either way.
  const dropBlobs = (bucket: string, files: string[]) => dropBlobsAfterCommit(d, bucket, files);

  /** The copy of `src` as a new blob, for `to`; undefined when there is nothing to copy. */
  const copyBlob = async (job: JobRow, src: ObjectRow | undefined, to: string, there: ObjectRow | undefined) => {
    if (!src) return undefined; // deleted meanwhile: nothing to copy
    if (there && there.sha256 === src.sha256) return undefined; // done before a restart, or the same bytes
    if (there && !job.overwrite) throw new StorageFailure("conflict", `"${to}" already exists; copy with overwrite to replace it.`);
    const tooLong = destinationTooLong(job, src.key);
    if (tooLong) throw invalid(tooLong);
    const file = randomUUID();
    await d.blobs.put(objectBlob(job.bucket, file), await d.blobs.get(objectBlob(job.bucket, src.file)));
    return { bucket: job.bucket, key: to, file, size: src.size, contentType: src.contentType, sha256: src.sha256 };
  };

  const step = async (job: JobRow, keys: string[]): Promise<StepOutcome> => {
    const s = selectionOf(job.from);
    if (job.action === "move") return jobs.moveStep(job, s, last(keys), keys.length);
    if (job.action === "delete") return jobs.deleteStep(job, s, last(keys), keys.length);
    const sources = await d.metadata.latestOf(job.bucket, keys);
    const targets = keys.map((k) => destination(k, job.from, job.to));
    const existing = await d.metadata.latestOf(job.bucket, targets);
    let at = job;
    for (let i = 0; i < keys.length; i += COPIES_AT_ONCE) {
      // A few blobs at once, then their rows and the job's progress in one transaction (one
      // each took 4/5 of a copy's time): a cancel is seen at each, what was recorded is what is
      // there (review 29a #7), and a copy not recorded leaves no file.
      const some = keys.slice(i, i + COPIES_AT_ONCE);
      const settled = await Promise.allSettled(some.map((k, j) => copyBlob(job, sources.get(k), targets[i + j], existing.get(targets[i + j]))));
      const made = settled.flatMap((r) => (r.status === "fulfilled" && r.value ? [r.value] : []));
      const unmade = () => d.blobs.delete(made.map((m) => objectBlob(job.bucket, m.file))).catch(() => undefined);
      let out: StepOutcome;
      try {
        const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
        if (failed) throw failed.reason;
        out = await jobs.copyStep(at, made, last(some), some.length);
      } catch (e) {
        await unmade();
        throw e;
      }
      if (out.kind !== "ok") {
        await unmade();
        if (out.kind === "conflict") throw new StorageFailure("conflict", `"${out.key}" was created meanwhile; copy with overwrite to replace it.`);
        return out;
      }
      at = { ...at, cursor: last(some), done: at.done + some.length };
    }
    return { kind: "ok", removedFiles: [] };
  };

  const run = async (first: JobRow) => {
    let job = first;
    const s = selectionOf(job.from);
    try {
      for (;;) {
        if (stopped) return;
        const keys = await jobs.nextKeys(job.bucket, s, job.cursor, job.action === "copy" ? copyStep : moveStep);
        if (keys.length === 0) {
          await jobs.finish(job.id, "done");
          return;
        }
        const out = await step(job, keys);
        if (out.kind === "stopped") return;
        if (out.kind === "conflict") {
          await jobs.finish(job.id, "failed", `"${out.key}" already exists; run the job with overwrite to replace it. ${job.done} done before this.`);
          return;
        }
        if (out.kind === "tooLong") {
          await jobs.finish(job.id, "failed", `${destinationTooLong(job, out.key) ?? `"${out.key}" would be too long.`} ${job.done} done before this.`);
          return;
        }
        await dropBlobs(job.bucket, out.removedFiles);
        job = { ...job, cursor: last(keys), done: job.done + keys.length };
      }
    } catch (e) {
      if (stopped) return;
      const message = e instanceof StorageFailure ? e.message : `The job stopped: ${(e as Error).message.split("\n")[0]}`;
      d.log.warn({ job: job.id, action: job.action }, `storage job failed: ${message}`);
      await jobs.finish(job.id, "failed", message).catch(() => undefined);
    }
  };

  const launch = (job: JobRow) => {
    const loop = run(job).finally(() => loops.delete(job.id));
    loops.set(job.id, loop);
  };

  return {
    start(bucket, req) {
      // One start at a time: two asked at the same moment must see each other as running.
      const started = starting.then(() => startNow(bucket, req));
      starting = started.then(
        () => undefined,
        () => undefined,
      );
      return started;
    },
    async resume() {
      const left = await jobs.running();
      for (const job of left) if (!loops.has(job.id)) launch(job);
      return left.length;
    },
    async settled(id) {
      await loops.get(id)?.catch(() => undefined);
    },
    async idle() {
      while (loops.size > 0) await Promise.all([...loops.values()]);
    },
    stop() {
      stopped = true;
    },
  };

  async function startNow(bucket: string, req: JobRequest): Promise<JobRow> {
    const busy = (await jobs.running()).find((j) => j.bucket === bucket && jobsOverlap(j, req));
    if (busy) {
      const what = `${busy.action} ${busy.from || "(the top level)"}${busy.action === "delete" ? "" : ` → ${busy.to || "(the top level)"}`}`;
      throw new StorageFailure("conflict", `Another storage job is at work on the same files (${what}, ${busy.done} of ${busy.total} done, job ${busy.id}): wait for it to end, or cancel it, then start this one.`);
    }
    const s = selectionOf(req.from);
    const total = await jobs.count(bucket, s);
    if (total === 0) throw new StorageFailure("not_found", `There is nothing at "${req.from}" in bucket "${bucket}".`);
    if (req.action !== "delete" && req.from.endsWith("/") && utf8Length(req.to) > utf8Length(req.from)) {
      const longest = await jobs.longestKey(bucket, s);
      const tooLong = longest === undefined ? undefined : destinationTooLong(req, longest);
      if (tooLong) throw invalid(tooLong);
    }
    if (req.action !== "delete" && !req.overwrite) {
      const clash = await jobs.firstConflict(bucket, s, req.from, req.to);
      if (clash) {
        // A move over it removes its versions; a copy adds one on top (review 47a #4 was told "every version").
        const how = req.action === "move" ? "to replace it (every version of it)" : "to copy over it (a new version on top of it)";
        throw new StorageFailure("conflict", `"${destination(clash, req.from, req.to)}" already exists; send "overwrite": true ${how}.`);
      }
      // A folder onto a folder that holds files (or the top level) would mix the two, and
      // could not be told apart again: asked for, not done silently (the source's own files,
      // when it lies inside the destination, do not count). One key read, not a count: the
      // top level of a bucket may hold millions.
      if (req.from.endsWith("/")) {
        if (await jobs.holdsOther(bucket, folderSelection(req.to), s)) {
          const inside = req.to === "" ? "" : ` (such as "${req.to}${req.from.split("/").slice(-2, -1)[0]}/", to put it inside)`;
          throw new StorageFailure(
            "conflict",
            `${req.to === "" ? "The top level" : `"${req.to}"`} already holds files; ${req.action === "move" ? "moving" : "copying"} "${req.from}" there would mix the two folders. Choose another folder${inside}, or send "overwrite": true to merge them (${req.action === "move" ? "files at the same paths are replaced, every version of them" : "files at the same paths get a new version on top"}).`,
          );
        }
      }
    }
    const job = await jobs.create({ id: randomUUID(), bucket, action: req.action, from: req.from, to: req.to, overwrite: req.overwrite, total });
    launch(job);
    return job;
  }
}

const last = (keys: string[]) => keys[keys.length - 1];
