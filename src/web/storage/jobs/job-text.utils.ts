/** Words for a storage job's progress and outcome. Pure. */
import type { JobStatus } from "./storage-job-mutation";

const VERB: Record<JobStatus["action"], [string, string]> = { move: ["Moving", "Moved"], copy: ["Copying", "Copied"], delete: ["Deleting", "Deleted"] };

const files = (n: number) => `${n.toLocaleString("en-US")} file${n === 1 ? "" : "s"}`;

export function jobText(job: JobStatus): string {
  const [ing, ed] = VERB[job.action];
  const where = job.action === "delete" ? job.from : `${job.from} → ${job.to || "the top level"}`;
  switch (job.state) {
    case "running":
      return `${ing} ${where}: ${job.done.toLocaleString("en-US")} of ${files(job.total)}`;
    case "done":
      return `${ed} ${files(job.done)}: ${where}`;
    case "cancelled":
      return `Cancelled after ${files(job.done)} of ${job.total.toLocaleString("en-US")}: what was done stays done`;
    case "failed":
      return `Stopped after ${files(job.done)} of ${job.total.toLocaleString("en-US")}: ${job.error ?? "the job failed"}`;
  }
}

export const jobPercent = (job: JobStatus) => (job.total === 0 ? 100 : Math.round((100 * job.done) / job.total));
