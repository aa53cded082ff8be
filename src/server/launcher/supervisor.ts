/**
 * Runs the embedded service as a child process and keeps it running: a child that dies is
 * restarted after a backoff (backoff.ts), each exit and restart logged in one line; meanwhile
 * its state ("restarting", or "down" once it gives up) is what /api/health reports and what
 * makes the proxy answer 503. A crash of the service therefore never takes the proxy down, and
 * stop() (or the launcher's death, see supervised-child.ts) stops the service.
 */
import { type ChildProcess, fork } from "node:child_process";
import http from "node:http";
import type { ServiceState, ServiceStatus } from "../proxy/health";
import { type BackoffPolicy, DEFAULT_BACKOFF, failuresAfterCrash, restartDelay } from "./backoff";
import { isChildMessage, type StartMessage } from "../child-protocol";

export interface ChildCommand {
  /** The script to fork (dist-server/service/main.js, or service/main.ts under tsx). */
  script: string;
  execArgv: string[];
  env: NodeJS.ProcessEnv;
}

export interface SupervisorOptions {
  command: ChildCommand;
  start: Omit<StartMessage, "type">;
  log(line: string): void;
  /** How long a child may take to say it is ready (first start may seed the sample data). */
  readyTimeoutMs?: number;
  policy?: BackoffPolicy;
  /**
   * Liveness: once ready, the service is asked for any answer every `intervalMs`; after
   * `unresponsiveAfter` misses in a row it is reported unresponsive (the proxy answers 503 at
   * once instead of waiting on it), after `killAfter` it is killed, and so restarted.
   */
  liveness?: { intervalMs: number; timeoutMs: number; unresponsiveAfter: number; killAfter: number };
}

export const DEFAULT_LIVENESS = { intervalMs: 1000, timeoutMs: 1500, unresponsiveAfter: 2, killAfter: 15 };

/** Any HTTP answer (even a 404) means the service's event loop is alive. */
function probe(url: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(`${url}/v0/__alive`, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
  });
}

export interface Supervisor extends ServiceStatus {
  /** Starts the first child; resolves with its URL, rejects with why it could not start. */
  start(): Promise<string>;
  /** Stops the service (SIGTERM, then SIGKILL after graceMs) and any restart to come. */
  stop(graceMs?: number): Promise<void>;
  pid(): number | undefined;
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by ${signal}` : `exited with code ${code}`;
}

export function createSupervisor(opts: SupervisorOptions): Supervisor {
  const policy = opts.policy ?? DEFAULT_BACKOFF;
  const readyTimeoutMs = opts.readyTimeoutMs ?? 120_000;
  const message: StartMessage = { type: "start", ...opts.start };
  let state: ServiceState = "starting";
  let child: ChildProcess | undefined;
  let restarts = 0;
  let failures = 0;
  let stopping = false;
  let wake: (() => void) | undefined;

  /** One child, up to its "ready" (resolves) or its death before that (rejects). */
  function spawnOnce(): Promise<string> {
    const proc = fork(opts.command.script, [], {
      execArgv: opts.command.execArgv,
      env: opts.command.env,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      serialization: "json",
    });
    child = proc;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        proc.kill("SIGKILL");
        reject(new Error(`it did not start within ${readyTimeoutMs / 1000} s`));
      }, readyTimeoutMs);
      let failed: string | undefined;
      proc.on("message", (m: unknown) => {
        if (!isChildMessage(m)) return;
        if (m.type === "failed") failed = m.message;
        else {
          clearTimeout(timer);
          // Restarts listen where the first child did (SERVICE_PORT=0 picks a port once).
          message.port = Number(new URL(m.url).port);
          watch(proc, Date.now());
          keepAlive(proc, m.url);
          resolve(m.url);
        }
      });
      proc.once("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      proc.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(failed ?? `it ${describeExit(code, signal)} while starting`));
      });
      proc.send(message);
    });
  }

  /** Once ready: a death that stop() did not ask for starts the restart loop. */
  function watch(proc: ChildProcess, since: number) {
    proc.once("exit", (code, signal) => {
      if (stopping) return;
      failures = failuresAfterCrash(policy, failures, Date.now() - since);
      state = "restarting";
      opts.log(`the local service (pid ${proc.pid}) ${describeExit(code, signal)}; restarting it`);
      void restartLoop();
    });
  }

  function keepAlive(proc: ChildProcess, url: string) {
    const live = opts.liveness ?? DEFAULT_LIVENESS;
    let misses = 0;
    let busy = false;
    const timer = setInterval(async () => {
      if (busy || stopping || proc.exitCode !== null || proc.signalCode !== null) return;
      busy = true;
      const ok = await probe(url, live.timeoutMs);
      busy = false;
      if (stopping || child !== proc) return;
      if (ok) {
        if (state === "unresponsive") opts.log(`the local service (pid ${proc.pid}) answers again`);
        if (state === "unresponsive") state = "up";
        misses = 0;
        return;
      }
      misses += 1;
      if (misses === live.unresponsiveAfter && state === "up") {
        state = "unresponsive";
        opts.log(`the local service (pid ${proc.pid}) is running but not answering; restarting it if it stays so`);
      }
      if (misses >= live.killAfter) {
        opts.log(`the local service (pid ${proc.pid}) did not answer for ${Math.round((misses * live.intervalMs) / 1000)} s: killing it to restart it`);
        clearInterval(timer);
        proc.kill("SIGKILL");
      }
    }, live.intervalMs);
    timer.unref();
    proc.once("exit", () => clearInterval(timer));
  }

  async function restartLoop() {
    while (!stopping) {
      const delay = restartDelay(policy, failures);
      if (delay === undefined) {
        state = "down";
        opts.log(`the local service failed to start ${failures} times in a row; Baseboard stopped restarting it (restart Baseboard once the cause is fixed)`);
        return;
      }
      await new Promise<void>((r) => {
        const t = setTimeout(r, delay);
        wake = () => {
          clearTimeout(t);
          r();
        };
      });
      wake = undefined;
      if (stopping) return;
      try {
        await spawnOnce();
        if (stopping) return;
        restarts += 1;
        state = "up";
        opts.log(`the local service is back (pid ${child?.pid}, restart ${restarts})`);
        return;
      } catch (err) {
        failures += 1;
        opts.log(`the local service could not restart (${(err as Error).message}); attempt ${failures} of ${policy.maxFailures}`);
      }
    }
  }

  return {
    state: () => state,
    restarts: () => restarts,
    pid: () => child?.pid,
    async start() {
      try {
        const url = await spawnOnce();
        state = "up";
        return url;
      } catch (err) {
        state = "down";
        throw new Error(`The local service could not start: ${(err as Error).message}`, { cause: err });
      }
    },
    stop(graceMs = 10_000) {
      stopping = true;
      state = "stopped";
      wake?.();
      const proc = child;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const hard = setTimeout(() => proc.kill("SIGKILL"), graceMs);
        proc.once("exit", () => {
          clearTimeout(hard);
          resolve();
        });
        proc.kill("SIGTERM");
      });
    },
  };
}
