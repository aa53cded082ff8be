/**
 * Watches an answer going out to a browser that has stopped reading it. While the proxy pipes
 * the upstream's answer, backpressure pauses the upstream too, so a browser that reads nothing
 * would hold one of the lane's upstream connections for ever (undici's body timeout does not
 * run while the body is paused, and it must not: that is the browser's slowness, not the
 * upstream's). A browser that takes nothing for idleMs is cut; one that reads slowly but
 * steadily is not.
 *
 * Only time spent waiting on the browser counts (the answer's buffer is full and no 'drain'
 * came); time spent waiting for the upstream's next bytes is the upstream timeout's business.
 */
import type { ServerResponse } from "node:http";

/** Starts watching; returns a function that stops it (also stopped when the answer closes). */
export function watchAnswer(res: ServerResponse, idleMs: number, onStall: () => void): () => void {
  let lastProgress = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const onDrain = () => {
    lastProgress = Date.now();
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    res.off("drain", onDrain);
    res.off("close", stop);
  };
  const check = () => {
    if (stopped) return;
    const now = Date.now();
    if (!res.writableNeedDrain) lastProgress = now;
    const left = lastProgress + idleMs - now;
    if (left <= 0) {
      stop();
      return onStall();
    }
    // Checked a few times per period, so a stall is cut after idleMs to 1.25 x idleMs.
    timer = setTimeout(check, Math.min(left, Math.max(50, idleMs / 4)));
    timer.unref();
  };
  res.on("drain", onDrain);
  res.once("close", stop);
  timer = setTimeout(check, idleMs);
  timer.unref();
  return stop;
}
