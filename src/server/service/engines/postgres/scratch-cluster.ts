/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: initdb into a temporary directory,
 * start it on a Unix socket inside that directory (no TCP port, so parallel runs never collide),
 * stop and delete it afterwards. Uses the server binaries of Debian's `postgresql` package.
 *
 * initdb and postgres refuse to run as root, so as root every command runs as the `postgres`
 * user (`runuser`), and the directory is handed to that user. Durability settings are off
 * (fsync, full_page_writes, synchronous_commit): the tests kill the *service*, never this
 * server, and a scratch cluster is deleted anyway; that makes initdb and CREATE DATABASE fast.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface ScratchCluster {
  /** Superuser URL of the `postgres` database, over the Unix socket. */
  adminUrl: string;
  /** Directory holding the socket (libpq's `host`). */
  socketDir: string;
  port: number;
  /** URL of another database of this cluster. */
  urlFor(database: string): string;
  /** Stops the server (immediately, like a crash) but keeps its data, for `restart`. */
  halt(): Promise<void>;
  /** Starts a halted server again on the same data. */
  restart(): Promise<void>;
  /** Stops the server and deletes its directory. */
  stop(): Promise<void>;
}

/** The newest installed server's bin directory (PG_BIN wins). */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PG_BIN) return env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error("PostgreSQL server binaries not found: install Debian's `postgresql` package (apt-get install -y postgresql) or set PG_BIN.");
  }
  return path.join(root, versions[0], "bin");
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/** Runs a server binary, as the `postgres` user when we are root. */
async function pgCommand(bin: string, tool: string, args: string[]): Promise<void> {
  const file = path.join(bin, tool);
  try {
    if (isRoot()) await run("runuser", ["-u", "postgres", "--", file, ...args], { cwd: "/" });
    else await run(file, args, { cwd: "/" });
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${tool} failed: ${(err.stderr || err.stdout || err.message).trim()}`, { cause: e });
  }
}

export interface ScratchOptions {
  /** Socket name port (the socket file is .s.PGSQL.<port>); also the TCP port when `tcp` is set. */
  port?: number;
  /** Also listen on 127.0.0.1:<port> (for tools that want TCP). */
  tcp?: boolean;
  /** Extra `-c name=value` server settings. */
  settings?: Record<string, string | number>;
}

export async function startScratchCluster(opts: ScratchOptions = {}): Promise<ScratchCluster> {
  const bin = findPostgresBin();
  const port = opts.port ?? 55432;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-pg-"));
  const data = path.join(dir, "data");
  let serverArgs = "";
  const start = () => pgCommand(bin, "pg_ctl", ["-D", data, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "-o", serverArgs, "start"]);
  const halt = () => pgCommand(bin, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
  if (isRoot()) {
    // mkdtemp makes the directory 0700 for root; the server runs as `postgres`.
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    fs.chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  try {
    await pgCommand(bin, "initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync", "--no-instructions"]);
    const settings: Record<string, string | number> = {
      unix_socket_directories: dir,
      listen_addresses: opts.tcp ? "127.0.0.1" : "",
      port,
      fsync: "off",
      full_page_writes: "off",
      synchronous_commit: "off",
      max_connections: 300,
      shared_buffers: "256MB",
      ...opts.settings,
    };
    serverArgs = Object.entries(settings)
      .map(([k, v]) => `-c ${k}=${v === "" ? "''" : v}`)
      .join(" ");
    await start();
  } catch (e) {
    const log = path.join(dir, "server.log");
    const tail = fs.existsSync(log) ? `\n${fs.readFileSync(log, "utf8").slice(-2000)}` : "";
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(e as Error).message}${tail}`, { cause: e });
  }
  const urlFor = (database: string) => `postgres://postgres@localhost:${port}/${encodeURIComponent(database)}?host=${encodeURIComponent(dir)}`;
  let stopped = false;
  return {
    adminUrl: urlFor("postgres"),
    socketDir: dir,
    port,
    urlFor,
    halt,
    restart: start,
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        // Already halted (`halt` without `restart`): pg_ctl says so, and the directory goes anyway.
        await halt().catch(() => undefined);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
