import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { writeFileOnce, writeFileOnceSync } from "./write-once";

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "bb-write-once-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Reads `file` in a tight loop on another thread; reports every length it saw that was not `full`. */
function watchFile(file: string, full: number) {
  const worker = new Worker(
    `const { parentPort, workerData } = require("node:worker_threads");
     const fs = require("node:fs");
     const seen = new Set(); let reads = 0; let stop = false;
     parentPort.on("message", () => { stop = true; });
     (function loop() {
       for (let i = 0; i < 200; i++) {
         try { const n = fs.readFileSync(workerData.file).length; reads++; if (n !== workerData.full) seen.add(n); } catch {}
       }
       if (stop) parentPort.postMessage({ partial: [...seen], reads }); else setImmediate(loop);
     })();`,
    { eval: true, workerData: { file, full } },
  );
  return {
    stop: () =>
      new Promise<{ partial: number[]; reads: number }>((resolve) => {
        worker.once("message", (m) => resolve(m));
        worker.postMessage("stop");
      }).finally(() => worker.terminate()),
  };
}

describe("writeFileOnce", () => {
  it("a reader never sees the file empty or partly written, and the first writer wins", async () => {
    const text = "x".repeat(4 * 1024 * 1024);
    let reads = 0;
    for (let round = 0; round < 5; round++) {
      const file = path.join(tempDir(), "buckets.json");
      const watcher = watchFile(file, text.length);
      await new Promise((r) => setTimeout(r, 20));
      expect(writeFileOnceSync(file, text)).toBe(true);
      expect(await writeFileOnce(file, "second")).toBe(false);
      expect(writeFileOnceSync(file, "third")).toBe(false);
      const seen = await watcher.stop();
      reads += seen.reads;
      expect(seen.partial).toEqual([]);
      expect(fs.readFileSync(file, "utf8")).toBe(text);
      // No temporary files are left beside it.
      expect(fs.readdirSync(path.dirname(file))).toEqual(["buckets.json"]);
    }
    expect(reads).toBeGreaterThan(0);
  });

  it("keeps the mode it is given", async () => {
    const file = path.join(tempDir(), "secret");
    expect(await writeFileOnce(file, "s\n", 0o600)).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("says what failed when the folder is missing", () => {
    expect(() => writeFileOnceSync(path.join(tempDir(), "no", "such", "file"), "x")).toThrow(/ENOENT/);
  });
});
