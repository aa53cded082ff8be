/**
 * Bounded resizing (issue 9.3): at most `concurrency` resizes run at once and at most `queue`
 * wait for a slot; past that the request is refused at once with a 503 and Retry-After, so a
 * flood of new sizes costs the flooder, not the memory of the service.
 */
import { StorageFailure } from "./failure";

export interface ResizeQueue {
  run<T>(job: () => Promise<T>): Promise<T>;
  /** Running and waiting jobs (for tests and logs). */
  load(): { running: number; waiting: number };
}

export function createResizeQueue(concurrency: number, queue: number): ResizeQueue {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(job) {
      if (running >= concurrency) {
        if (waiting.length >= queue) {
          throw new StorageFailure("unavailable", `The service is busy resizing images (${concurrency} running, ${queue} waiting); try again in a moment.`, undefined, 1);
        }
        await new Promise<void>((r) => waiting.push(r));
      }
      running++;
      try {
        return await job();
      } finally {
        running--;
        waiting.shift()?.();
      }
    },
    load: () => ({ running, waiting: waiting.length }),
  };
}
