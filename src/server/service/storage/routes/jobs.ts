/**
 * The jobs extension (issue 22.2): move, copy or delete a key or a whole folder on the server.
 *   POST   /v0/storage/jobs/{bucket}        {"action","from","to","overwrite"?} → 202 {"id",…}
 *   GET    /v0/storage/jobs/{bucket}/{id}   → {"state","done","total",…}
 *   DELETE /v0/storage/jobs/{bucket}/{id}   cancels (what is done stays done) → the job
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { HttpError } from "../../../http-error";
import type { JobRow, JobsStore } from "../metadata-jobs";
import { allowed } from "../domain/access";
import type { Operation } from "../domain/buckets";
import { type JobAction, parseJobRequest } from "../domain/jobs/job-request.utils";
import type { JobRunner } from "../domain/jobs/run-jobs";
import type { StorageDomain } from "../domain/storage-domain";
import { bucketParam, requester } from "./request";

export interface JobAnswer {
  id: string;
  action: JobAction;
  from: string;
  to: string;
  overwrite: boolean;
  state: JobRow["state"];
  done: number;
  total: number;
  error: string | null;
}

const answer = (j: JobRow): JobAnswer => ({ id: j.id, action: j.action, from: j.from, to: j.to, overwrite: j.overwrite, state: j.state, done: j.done, total: j.total, error: j.error });

/** What a job needs of the bucket: a move creates the new names and deletes the old ones. */
function operations(action: JobAction, overwrite: boolean): Operation[] {
  const write: Operation[] = overwrite ? ["create", "update"] : ["create"];
  if (action === "delete") return ["delete"];
  return action === "move" ? [...write, "delete"] : write;
}

export function registerJobRoutes(app: FastifyInstance, d: StorageDomain, runner: JobRunner, jobs: JobsStore): void {
  const find = async (request: FastifyRequest) => {
    const { bucket, id } = request.params as { bucket: string; id: string };
    const job = await jobs.get(bucket, id);
    if (!job) throw new HttpError("not_found", `There is no job "${id}" in bucket "${bucket}".`);
    return job;
  };

  app.post("/v0/storage/jobs/:bucket", async (request, reply): Promise<JobAnswer> => {
    const name = bucketParam(request);
    allowed(d, requester(request), name, "list");
    const parsed = parseJobRequest(request.body);
    if (!parsed.ok) throw HttpError.from(parsed.error);
    for (const op of operations(parsed.value.action, parsed.value.overwrite)) allowed(d, requester(request), name, op);
    const job = await runner.start(name, parsed.value);
    reply.code(202);
    return answer(job);
  });

  app.get("/v0/storage/jobs/:bucket/:id", async (request, reply): Promise<JobAnswer> => {
    allowed(d, requester(request), bucketParam(request), "list");
    reply.header("cache-control", "no-store");
    return answer(await find(request));
  });

  app.delete("/v0/storage/jobs/:bucket/:id", async (request): Promise<JobAnswer> => {
    const name = bucketParam(request);
    allowed(d, requester(request), name, "list");
    const job = await find(request);
    for (const op of operations(job.action, job.overwrite)) allowed(d, requester(request), name, op);
    await jobs.finish(job.id, "cancelled", "Cancelled; what was done before stays done.");
    // The copies in hand end first (at most a few files: a cancel is seen between them), so the
    // count answered is what is there, not one step short.
    await Promise.race([runner.settled(job.id), new Promise((r) => setTimeout(r, 10_000).unref())]);
    return answer((await jobs.get(name, job.id))!);
  });
}
