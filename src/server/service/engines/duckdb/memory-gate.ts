/**
 * What a read does when DuckDB runs out of memory for it. DuckDB has one memory limit for all
 * queries and no share per query, so a read fails for want of memory another read holds:
 *
 * - A **heavy** read (it ran a while before failing: a deep sort beside key lookups) waits for
 *   the others to end and runs once more: trying it again meanwhile would cost seconds and most
 *   likely fail again.
 * - A **light** read (it failed quickly: a key lookup beside a deep sort) tries again soon and
 *   again, a little further apart each time, while the others run: what a spilling sort holds
 *   comes and goes, and waiting for the deep sort to end would stall it for seconds.
 * - Alone (or still) out of memory, what the instance itself holds may be what is missing
 *   (DuckDB keeps what lookups load of a key index): `recycle` opens it afresh, and the read runs
 *   once more; reads that were waiting for others try again then too, on the fresh instance,
 *   not behind the read that recycled it.
 *
 * Pure coordination: the engine passes how to run, what counts as out of memory and how to
 * recycle, so this is tested on its own (memory-gate.test.ts) and with DuckDB (out-of-memory.test.ts).
 */

export interface MemoryGateTimings {
  /** A read that failed within this long is light. */
  lightReadMs: number;
  /** A light read's first wait before trying again; doubled each time up to `lightRetryMaxMs`. */
  lightRetryMs: number;
  lightRetryMaxMs: number;
  /** The longest a read waits for the others, in all. */
  othersWaitMs: number;
}

export const MEMORY_GATE_TIMINGS: MemoryGateTimings = { lightReadMs: 1000, lightRetryMs: 10, lightRetryMaxMs: 400, othersWaitMs: 60_000 };

export interface MemoryGate {
  /** Runs one read, trying it again as above when it runs out of memory. */
  read<T>(attempt: () => Promise<T>): Promise<T>;
  /** For `recycle`, from within a read: resolves when no read runs but those waiting (or after `ms`). */
  othersDone(ms: number): Promise<void>;
  /** Reads running other than the caller and those waiting for others. */
  othersRunning(): number;
  /** Every read waiting for others tries again now (the instance was opened afresh). */
  wakeWaiting(): void;
}

export function createMemoryGate(options: {
  isOutOfMemory(error: unknown): boolean;
  /** Opens the instance afresh when it can; false when not done. */
  recycle(): Promise<boolean>;
  timings?: MemoryGateTimings;
}): MemoryGate {
  const t = options.timings ?? MEMORY_GATE_TIMINGS;
  let reading = 0;
  let waitingCount = 0;
  let waiters: (() => void)[] = [];

  const wakeWaiting = () => {
    const wake = waiters;
    waiters = [];
    for (const w of wake) w();
  };

  const othersDone = (ms: number) =>
    new Promise<void>((resolve) => {
      if (reading - waitingCount - 1 <= 0) return resolve();
      waitingCount++;
      let woken = false;
      const wake = () => {
        if (woken) return;
        woken = true;
        waitingCount--;
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      waiters.push(wake);
    });

  const othersRunning = () => reading - waitingCount - 1;

  async function read<T>(attempt: () => Promise<T>): Promise<T> {
    reading++;
    try {
      const started = performance.now();
      try {
        return await attempt();
      } catch (e) {
        if (!options.isOutOfMemory(e)) throw e;
        const light = performance.now() - started < t.lightReadMs;
        const giveUpAt = performance.now() + t.othersWaitMs;
        for (let delay = t.lightRetryMs; othersRunning() > 0 && performance.now() < giveUpAt; delay = Math.min(delay * 2, t.lightRetryMaxMs)) {
          await othersDone(light ? delay : t.othersWaitMs);
          try {
            return await attempt();
          } catch (again) {
            if (!options.isOutOfMemory(again)) throw again;
          }
          if (!light) break;
        }
        if (!(await options.recycle())) throw e;
        return await attempt();
      }
    } finally {
      reading--;
      if (reading - waitingCount <= 0) wakeWaiting();
    }
  }

  return { read, othersDone, othersRunning, wakeWaiting };
}
