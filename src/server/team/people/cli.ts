/**
 * `npm run people -- <command>`: manage who signs in, on the store the environment names
 * (DATA_DIR/team.sqlite, or BASEBOARD_DATABASE_URL), whether or not a proxy is running: the
 * proxies see a change within a second (they poll the store's revision).
 *
 *   add <email> --role <viewer|editor|admin> [--name "<name>"] [--invite]
 *   grant <email> <table:db/slug|bucket:name> <none|viewer|editor>
 *   revoke-grant <email> <table:db/slug|bucket:name>
 *   set-role <email> <role>      disable <email>      enable <email>
 *   reset-password <email> [--invite]
 *   list
 *
 * A password comes from standard input when it is not a terminal (one line), or is asked twice
 * at a terminal without echo. `--invite` prints a one-time link that sets it instead.
 */
import { createInterface } from "node:readline";
import type { AuditLog } from "../audit/audit-log";
import { commandActor, recordPeopleChange } from "../audit/auditor";
import { openAuditLog } from "../audit/open-audit-log";
import { openTeamStore } from "../store/open-store";
import { inviteOrigin } from "./invite-origin";
import { trailRefusal } from "../store/why-unwritable";
import { createPeopleAdmin, type Outcome, publicPerson } from "./people-admin";

const USAGE = `Usage: npm run people -- <command>
  add <email> --role <viewer|editor|admin> [--name "<name>"] [--invite]
  grant <email> <table:<database>/<table>|bucket:<name>> <none|viewer|editor>
  revoke-grant <email> <table:<database>/<table>|bucket:<name>>
  set-role <email> <viewer|editor|admin>
  disable <email> | enable <email>
  reset-password <email> [--invite]
  list
A password is read from standard input (one line) when it is not a terminal, or asked twice.`;

class UsageError extends Error {}

function parseArgs(argv: string[]) {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--invite") flags.invite = true;
    else if (a === "--role" || a === "--name") {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value.`);
      flags[a.slice(2)] = v;
    } else if (a.startsWith("--")) throw new UsageError(`Unknown option ${a}.`);
    else positional.push(a);
  }
  return { positional, flags };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

/** Asks without echo (the terminal shows nothing while typing). */
function askHidden(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const out = rl as unknown as { _writeToOutput: (s: string) => void; output: NodeJS.WriteStream };
    out._writeToOutput = (s: string) => {
      if (s.includes(prompt)) process.stdout.write(prompt);
    };
    rl.question(prompt, (answer) => {
      rl.close();
      process.stdout.write("\n");
      resolve(answer);
    });
  });
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const line = (await readAll(process.stdin)).split(/\r?\n/)[0] ?? "";
    if (!line) throw new UsageError("No password on standard input: pipe one line, e.g. `printf '%s\\n' \"$PW\" | npm run people -- add …`, or use --invite.");
    return line;
  }
  const first = await askHidden("Password (at least 12 characters): ");
  const second = await askHidden("Password again: ");
  if (first !== second) throw new UsageError("The two passwords differ; nothing was changed.");
  return first;
}

function inviteLink(token: string): string {
  return `${inviteOrigin(process.env)}/invite/${token}`;
}

export async function runPeopleCommand(argv: string[], print: (s: string) => void): Promise<number> {
  const { positional, flags } = parseArgs(argv);
  const [command, ...args] = positional;
  if (!command || command === "help" || command === "--help") {
    print(USAGE);
    return command ? 0 : 2;
  }
  const want = (n: number) => {
    if (args.length !== n) throw new UsageError(`${command} takes ${n} argument${n === 1 ? "" : "s"}.\n${USAGE}`);
  };
  const store = await openTeamStore(process.env);
  const admin = createPeopleAdmin(store);
  // A change made here is recorded like one made in the app: before it is made (nothing is
  // changed when the activity log cannot be written), then how it ended.
  let finish: ((status: number, message?: string) => Promise<void>) | undefined;
  let trail: AuditLog | undefined;
  const detail = PEOPLE_DETAIL[command]?.(args, flags);
  if (detail) {
    trail = await openAuditLog(process.env);
    try {
      finish = await recordPeopleChange(trail, commandActor("npm run people"), "this machine", `npm run people -- ${command}`, { action: command, email: args[0], detail });
    } catch (e) {
      print(`Error: ${trailRefusal(e, { ownWords: true })}`);
      await trail.close();
      await store.close();
      return 1;
    }
  }
  const ended = async (status: number, message?: string) => {
    const f = finish;
    finish = undefined;
    await f?.(status, message);
  };
  const done = async <T>(o: Outcome<T>, say: (v: T) => string) => {
    await ended(o.ok ? 200 : 400, o.ok ? undefined : o.message);
    if (!o.ok) {
      print(`Error: ${o.message}`);
      return 1;
    }
    print(say(o.value));
    return 0;
  };
  // This command may take the last admin away (it is how one is put back, too): said, so that it is not by mistake.
  const enabledAdmin = async (email?: string) => (await admin.list()).some((p) => p.role === "admin" && !p.disabled && (email === undefined || p.email.toLowerCase() === email.toLowerCase()));
  // Only when this command took it away (with no admin to begin with there is nothing to warn of).
  let wasAdmin = false;
  const warnNoAdmin = async (code: number) => {
    if (code === 0 && wasAdmin && !(await enabledAdmin())) {
      print("Warning: no enabled admin is left, so nobody can manage people in the app. `npm run people -- set-role <email> admin` makes one.");
    }
    return code;
  };
  // Every `return` below awaits its outcome: the `finally` closes the stores, and must not run
  // while the outcome is still being written (on PostgreSQL it then never was, and the command
  // printed nothing and exited 0).
  try {
    switch (command) {
      case "add": {
        want(1);
        if (!flags.role) throw new UsageError("add needs --role viewer, editor or admin.");
        const password = flags.invite ? undefined : await readPassword();
        const added = await admin.add({ email: args[0], role: flags.role, name: flags.name, password });
        if (!added.ok || !flags.invite) return await done(added, (p) => `Added ${p.email} (${p.name}) as ${p.role}.`);
        const inv = await admin.invite(added.value.email);
        return await done(inv, (v) => `Added ${v.person.email} as ${v.person.role}. One-time link to set the password (valid 7 days):\n${inviteLink(v.token)}`);
      }
      case "grant":
        want(3);
        return await done(await admin.grant(args[0], args[1], args[2]), (p) => `${p.email} now has ${args[2]} on ${args[1]}; their sessions were ended.`);
      case "revoke-grant":
        want(2);
        return await done(await admin.revokeGrant(args[0], args[1]), (p) => `${p.email} no longer has a grant on ${args[1]} (their role applies).`);
      case "set-role":
        want(2);
        wasAdmin = await enabledAdmin(args[0]);
        return await done(await admin.update(args[0], { role: args[1] }), (p) => `${p.email} is now ${p.role}.`).then(warnNoAdmin);
      case "disable":
        want(1);
        wasAdmin = await enabledAdmin(args[0]);
        return await done(await admin.update(args[0], { disabled: true }), (p) => `${p.email} is disabled; their sessions were ended.`).then(warnNoAdmin);
      case "enable":
        want(1);
        return await done(await admin.update(args[0], { disabled: false }), (p) => `${p.email} is enabled.`);
      case "reset-password": {
        want(1);
        if (flags.invite) return await done(await admin.invite(args[0]), (v) => `${v.reset ? `${v.person.email}'s password no longer works and their sessions were ended. ` : ""}One-time link for ${v.person.email} to set a new password (valid 7 days):\n${inviteLink(v.token)}`);
        const password = await readPassword();
        return await done(await admin.setPassword(args[0], password), (p) => `New password set for ${p.email}; their sessions were ended.`);
      }
      case "list": {
        want(0);
        const people = (await admin.list()).map(publicPerson);
        if (people.length === 0) print("Nobody yet: `npm run people -- add you@example.com --role admin` adds the first person.");
        for (const p of people) {
          const grants = p.grants.map((g) => `${g.resource}=${g.level}`).join(", ");
          print(`${p.email}\t${p.name}\t${p.role}${p.disabled ? "\tdisabled" : ""}${p.sso ? "\tsso" : ""}\tlast seen ${p.lastSeenAt ?? "never"}${grants ? `\t${grants}` : ""}`);
        }
        return 0;
      }
      default:
        throw new UsageError(`Unknown command "${command}".\n${USAGE}`);
    }
  } catch (e) {
    await ended(400, (e as Error).message);
    throw e;
  } finally {
    await trail?.close();
    await store.close();
  }
}

/** What the activity log keeps of each command that changes people (never a password). */
const PEOPLE_DETAIL: Record<string, ((args: string[], flags: Record<string, string | true | undefined>) => Record<string, unknown>) | undefined> = {
  add: (_a, f) => ({ role: f.role, name: f.name, ...(f.invite ? { invite: true } : {}) }),
  grant: (a) => ({ resource: a[1], level: a[2] }),
  "revoke-grant": (a) => ({ resource: a[1] }),
  "set-role": (a) => ({ role: a[1] }),
  disable: () => ({ disabled: true }),
  enable: () => ({ disabled: false }),
  "reset-password": (_a, f) => (f.invite ? { invite: true } : {}),
};

// Run as a command (not when imported by tests).
if (process.argv[1] && /people[\\/]cli\.[tj]s$/.test(process.argv[1])) {
  runPeopleCommand(process.argv.slice(2), (s) => console.log(s)).then(
    (code) => process.exit(code),
    (e) => {
      console.error(e instanceof UsageError ? e.message : `Error: ${(e as Error).message}`);
      process.exit(2);
    },
  );
}
