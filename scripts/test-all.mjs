#!/usr/bin/env node
/**
 * `npm test`'s last step: the unit/HTTP suite (vitest) and the end-to-end suite (Playwright)
 * side by side. Both spend most of their time waiting on servers, child processes, disks and a
 * browser rather than computing, so on two cores together they take about as long as the longer
 * one instead of the sum (npm test stays inside its ten minutes). Vitest prints as it goes;
 * Playwright's report is held and printed whole when it ends, so the two never interleave.
 * Exits non-zero when either fails.
 */
import { spawn } from "node:child_process";

const run = (cmd, args, buffered) =>
  new Promise((resolve) => {
    const chunks = [];
    const child = spawn(cmd, args, { stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit", env: process.env });
    if (buffered) {
      child.stdout.on("data", (c) => chunks.push(c));
      child.stderr.on("data", (c) => chunks.push(c));
    }
    child.on("exit", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() }));
  });

const [unit, e2e] = await Promise.all([run("npx", ["vitest", "run"], false), run("npx", ["playwright", "test"], true)]);
process.stdout.write(`\n=== end-to-end (Playwright) ===\n${e2e.output}`);
process.exit(unit.code !== 0 ? unit.code : e2e.code);
