/** Words for a storage job's progress and outcome. Pure. */
import type { JobStatus } from "./storage-job-mutation";

/** The labels of the replace checkboxes, which the conflict messages name. */
export const REPLACE_AT_PATH = "Replace existing files at the new path";
export const REPLACE_IN_FOLDER = "Replace existing files in that folder";

/** The service's refusal of a destination that exists: `"a/b.txt" already exists; …overwrite…`. */
const EXISTS = /^"(.+)" already exists[;.]/;

/**
 * A move or copy refused because the destination exists (the service's 409 before the job
 * starts, or a job stopped by a file that appeared meanwhile), in the app's words: the service
 * names its API field ("overwrite"), the app names its checkbox. Undefined for other messages.
 */
export function conflictText(message: string, checkbox: string | undefined, instead: string): string | undefined {
  const m = EXISTS.exec(message);
  // No checkbox: this person may not replace (a move that replaces is a delete), so it is not offered.
  // A copy over it adds a version on top; a move over it removes every version (the service says which).
  const how = /copy over it/.test(message) ? "to copy over it (a new version on top of it)" : "to replace it (every version of it)";
  if (m) return checkbox ? `“${m[1]}” already exists. Tick “${checkbox}” ${how}, or ${instead}.` : `“${m[1]}” already exists: ${instead}.`;
  // A folder onto a folder that holds files: mixing them is asked for, not done.
  const h = HOLDS.exec(message);
  if (!h) return undefined;
  const inside = h[3] === undefined ? "" : ` (such as “${h[3]}”, to put it inside)`;
  return `${h[1] === undefined ? "The top level" : `“${h[1]}”`} already holds files: ${h[2]} there would mix the two folders. Choose another folder${inside}${checkbox ? `, or tick “${checkbox}” to merge them` : ""}.`;
}

/** The service's refusal of a folder onto one that holds files (or the top level). */
const HOLDS = /^(?:"(.+)"|The top level) already holds files; (moving|copying) "[^"]*" there would mix the two folders\. Choose another folder(?: \(such as "([^"]*)", to put it inside\))?,/;

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
    case "failed": {
      // A file appeared at the destination after the job started (before, the service refuses to start it).
      const clash = job.error ? EXISTS.exec(job.error) : null;
      const why = clash ? `“${clash[1]}” appeared at the destination meanwhile. Start again with “${REPLACE_AT_PATH}” ticked to replace it` : (job.error ?? "the job failed");
      return `Stopped after ${files(job.done)} of ${job.total.toLocaleString("en-US")}: ${why}`;
    }
  }
}

export const jobPercent = (job: JobStatus) => (job.total === 0 ? 100 : Math.round((100 * job.done) / job.total));
