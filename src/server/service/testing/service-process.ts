/**
 * The one way tests start the service as its own node process (`src/server/service/main.ts`),
 * as a deployment runs each instance: for tests that need several processes on one database,
 * or that kill one with SIGKILL and start another on the same data directory.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { serviceEntry } from "./service-entry";

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** fetch against this instance with the test key. */
  call(pathname: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  stop(): Promise<void>;
}

export const PROCESS_KEY = "instance-test-key-0123456789";
const ROOT = path.resolve(__dirname, "../../../..");

export function startServiceProcess(env: Record<string, string>, opts: { dataDir?: string } = {}): Promise<ServiceProcess> {
  const { script, execArgv } = serviceEntry();
  const args = [...execArgv, script, "--port", "0", ...(opts.dataDir ? ["--data-dir", opts.dataDir] : [])];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, SERVICE_API_KEYS: PROCESS_KEY, SERVICE_SEED: "0", SERVICE_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      const url = m[1];
      resolve({
        child,
        url,
        stop,
        call(pathname, init = {}) {
          const { json, ...rest } = init;
          const headers = { "x-api-key": PROCESS_KEY, ...(json === undefined ? {} : { "content-type": "application/json" }), ...(rest.headers as Record<string, string>) };
          return fetch(url + pathname, { method: json === undefined ? "GET" : "POST", ...rest, headers, body: json === undefined ? rest.body : JSON.stringify(json) });
        },
      });
    });
    child.stderr!.on("data", (c: Buffer) => (err += c));
    child.on("exit", (code) => reject(new Error(`service exited (${code}) before listening: ${err}`)));
  });
}
