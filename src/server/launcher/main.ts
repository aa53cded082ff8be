/**
 * `npm start` (after `vite build`) and `npm run dev` (`--dev`: Vite's dev server inside the
 * proxy). Prints the URL to open; SIGINT/SIGTERM let requests in flight finish, then stop the
 * proxy and the embedded service. A second signal stops at once.
 */
import fs from "node:fs";
import path from "node:path";
import { ADDRESS_FILE } from "../team/people/invite-origin";
import { serviceCommand } from "./service-command";
import { startBaseboard } from "./start";

const dev = process.argv.includes("--dev");

let app: Awaited<ReturnType<typeof startBaseboard>>;
try {
  app = await startBaseboard(process.env, { dev, serviceCommand: serviceCommand(import.meta.url, process.env) });
} catch (err) {
  console.error(`Baseboard could not start: ${(err as Error).message}`);
  process.exit(1);
}

// Where this Baseboard answers, for `npm run people` on the same DATA_DIR to print invite links
// that open (it guessed port 5173 when the proxy ran on another). Gone when it stops.
const addressFile = path.join(path.resolve(process.env.DATA_DIR ?? ".data"), ADDRESS_FILE);
try {
  fs.mkdirSync(path.dirname(addressFile), { recursive: true });
  fs.writeFileSync(addressFile, `${process.env.BASEBOARD_ORIGIN ?? app.url}\n`);
} catch {
  /* a read-only data directory: the command falls back to PORT and BASEBOARD_ORIGIN */
}

const where = app.serviceUrl ? `the local service at ${app.serviceUrl} (data in ${app.dataDir})` : `the service at ${app.config.baseUrl}`;
console.log(`Baseboard${dev ? " (dev)" : ""} is running: open ${app.url}\n  upstream: ${where}`);
const mode = app.identityMode();
if (mode === "people") console.log("  sign-in required: people and roles (npm run people -- list)");
else if (mode === "password") console.log("  login required (BASEBOARD_PASSWORD is set)");
else console.log("  single user on this machine, no sign-in (to add people: npm run people -- add you@example.com --role admin)");
// Nothing to show (a hosted upstream that describes no tables, with no config file): said here too, not only in the app.
const notice = await app.notice();
if (notice) console.log(`  note: ${notice}`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log("Stopping: finishing requests in flight (press Ctrl-C again to stop at once)…");
    fs.rmSync(addressFile, { force: true });
    app.close().then(
      () => process.exit(0),
      (err) => {
        console.error(`Error while stopping: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  });
}
