/**
 * The child's side of supervision (used by service/main.ts when it was forked by the
 * launcher): wait for the start message, start, say "ready" or "failed", and stop when the
 * launcher says so (SIGTERM) or is gone (the IPC channel closes, even after a SIGKILL), so the
 * service never outlives Baseboard.
 */
import { type ChildMessage, isStartMessage, type StartMessage } from "./child-protocol";

export interface Running {
  url: string;
  close(): Promise<void>;
}

export function runSupervisedChild(start: (message: StartMessage) => Promise<Running>): void {
  let running: Running | undefined;
  let stopping = false;
  const send = (m: ChildMessage, then?: () => void) => {
    if (process.connected) process.send?.(m, undefined, {}, () => then?.());
    else then?.();
  };
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // A close that hangs must not leave an orphan behind a launcher that is gone.
    setTimeout(() => process.exit(1), 10_000).unref();
    const done = () => process.exit(0);
    (running?.close() ?? Promise.resolve()).then(done, done);
  };
  // Ctrl-C reaches the whole process group: the launcher decides when its service stops
  // (after the requests in flight through the proxy have finished).
  process.on("SIGINT", () => {});
  process.on("SIGTERM", stop);
  process.on("disconnect", stop);
  process.once("message", (message: unknown) => {
    if (!isStartMessage(message)) return;
    start(message).then(
      (r) => {
        running = r;
        if (stopping) void r.close().finally(() => process.exit(0));
        else send({ type: "ready", url: r.url });
      },
      (err: Error) => send({ type: "failed", message: err.message }, () => process.exit(1)),
    );
  });
}
