/**
 * A launcher with people, for the team specs: its own data directory and ports, people added
 * with the real `npm run people` command before it starts. The default Playwright stack stays
 * the zero-setup single user.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test, type Page } from "@playwright/test";
import { E2E_PORT, E2E_SERVICE_PORT } from "../../playwright.config";

/**
 * Each worker its own ports (Playwright numbers its workers 0, 1, …): the team specs are two
 * groups that run at once (playwright.config.ts), each starting its stacks one after another.
 */
const SLOT = 100 * Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const TEAM_PORT = Number(process.env.E2E_TEAM_PORT ?? E2E_PORT + 20) + SLOT;
export const TEAM_SERVICE_PORT = Number(process.env.E2E_TEAM_SERVICE_PORT ?? E2E_SERVICE_PORT + 20) + SLOT;
export const teamUrl = `http://127.0.0.1:${TEAM_PORT}`;

export class TeamStack {
  private dir?: string;
  /** Made when first asked for: Playwright loads a spec file in several processes, and only one starts the stack. */
  get dataDir(): string {
    return (this.dir ??= fs.mkdtempSync(path.join(os.tmpdir(), "bb-e2e-team-")));
  }
  private launcher?: ChildProcess;
  /** Extra environment for the launcher (single sign-on settings). */
  env: Record<string, string> = {};

  people(args: string[], password?: string): string {
    // The bundle the web server's command built, as for the launcher below (0.4 s a call, not 1.0 under tsx).
    const r = spawnSync(process.execPath, ["dist-server/team/people/cli.js", ...args], {
      input: password === undefined ? "" : `${password}\n`,
      encoding: "utf8",
      env: { ...process.env, DATA_DIR: this.dataDir, PORT: String(TEAM_PORT) },
    });
    if (r.status !== 0) throw new Error(`people ${args.join(" ")}: ${r.stdout}${r.stderr}`);
    return r.stdout;
  }

  async start(): Promise<void> {
    // The bundle the web server's command built (playwright.config.ts), as `npm start` runs it.
    this.launcher = spawn(process.execPath, ["--max-semi-space-size=1", "dist-server/launcher/main.js"], {
      // Streams' people looked up again every 2 s, not 30: a tab whose session ended hears it soon.
      env: { ...process.env, PORT: String(TEAM_PORT), SERVICE_PORT: String(TEAM_SERVICE_PORT), DATA_DIR: this.dataDir, BASEBOARD_EVENTS_RECHECK_MS: "2000", ...this.env },
      stdio: ["ignore", "ignore", "pipe"],
      detached: true,
    });
    this.launcher.stderr?.on("data", (d: Buffer) => process.env.E2E_VERBOSE && process.stderr.write(d));
    const end = Date.now() + 90_000;
    for (;;) {
      try {
        if ((await fetch(`${teamUrl}/api/health`)).status === 200) return;
      } catch {
        /* not yet */
      }
      if (Date.now() > end) throw new Error("the team stack did not start");
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** The processes under the launcher (the proxy, the embedded service), by pid and command line. */
  processes(): { pid: number; cmd: string }[] {
    const root = this.launcher?.pid;
    if (root === undefined) return [];
    const kids = new Map<number, number[]>();
    for (const d of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const ppid = Number(fs.readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1].split(" ")[1]);
        kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
      } catch {
        /* gone */
      }
    }
    const out: { pid: number; cmd: string }[] = [];
    const walk = (pid: number) => {
      for (const k of kids.get(pid) ?? []) {
        try {
          out.push({ pid: k, cmd: fs.readFileSync(`/proc/${k}/cmdline`, "utf8").replace(/\0/g, " ") });
        } catch {
          /* gone */
        }
        walk(k);
      }
    };
    walk(root);
    return out;
  }

  async stop(): Promise<void> {
    const child = this.launcher;
    if (child?.pid !== undefined && child.exitCode === null) {
      const exited = new Promise<void>((r) => child.once("exit", () => r()));
      process.kill(-child.pid, "SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    }
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

export function useTeamStack(setup: (stack: TeamStack) => void | Promise<void>): TeamStack {
  const stack = new TeamStack();
  test.beforeAll(async () => {
    await setup(stack);
    await stack.start();
  });
  test.afterAll(() => stack.stop());
  return stack;
}

export async function signInAs(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${teamUrl}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${teamUrl}/`);
}
