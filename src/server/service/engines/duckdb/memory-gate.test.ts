/**
 * The memory gate's policy with reads of known length and failures (DuckDB itself is in
 * out-of-memory.test.ts): who tries again when, and who waits for whom.
 */
import { expect, it } from "vitest";
import { createMemoryGate, type MemoryGateTimings } from "./memory-gate";

const OOM = new Error("Out of Memory Error: failed to pin block");
const timings: MemoryGateTimings = { lightReadMs: 50, lightRetryMs: 5, lightRetryMaxMs: 40, othersWaitMs: 5_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function gateWith(recycle: () => Promise<boolean> = async () => false) {
  const log: string[] = [];
  const gate = createMemoryGate({ isOutOfMemory: (e) => e === OOM, recycle: async () => (log.push("recycle"), recycle()), timings });
  /** A read that runs `ms`, then fails out of memory while `failWhile()` holds, else answers `name`. */
  const read = (name: string, ms: number, failWhile: () => boolean = () => false) => {
    let tries = 0;
    return {
      get tries() {
        return tries;
      },
      done: gate.read(async () => {
        tries++;
        await sleep(ms);
        if (failWhile()) throw OOM;
        log.push(name);
        return name;
      }),
    };
  };
  return { gate, read, log };
}

it("a light read that runs out of memory beside a heavy one tries again soon, and answers while the heavy one still runs", async () => {
  const { read, log } = gateWith();
  const started = performance.now();
  const heavy = read("heavy", 600);
  // The lookup finds the memory taken for the heavy read's first 100 ms.
  const light = read("light", 1, () => performance.now() - started < 100);
  await light.done;
  expect(light.tries).toBeGreaterThan(1);
  expect(log).toEqual(["light"]);
  await heavy.done;
  expect(log).toEqual(["light", "heavy"]);
});

it("a heavy read that runs out of memory beside light ones waits for them to end, then runs once more", async () => {
  const { read, log } = gateWith();
  let lightsRunning = 0;
  const lights = [read("light1", 150), read("light2", 250)].map((r) => {
    lightsRunning++;
    return r.done.finally(() => lightsRunning--);
  });
  const heavy = read("heavy", 80, () => lightsRunning > 0);
  expect(await heavy.done).toBe("heavy");
  expect(heavy.tries).toBe(2);
  await Promise.all(lights);
  expect(log).toEqual(["light1", "light2", "heavy"]);
});

it("alone and out of memory: the instance is opened afresh and the read runs once more; when it cannot be, the error stands", async () => {
  let fresh = false;
  const recycled = gateWith(async () => (fresh = true));
  const r = recycled.read("alone", 5, () => !fresh);
  expect(await r.done).toBe("alone");
  expect([r.tries, recycled.log]).toEqual([2, ["recycle", "alone"]]);

  const refused = gateWith(async () => false);
  await expect(refused.read("alone", 5, () => true).done).rejects.toBe(OOM);
  expect(refused.log).toEqual(["recycle"]);
});

it("a read waiting for others tries again at once when woken (the instance was opened afresh)", async () => {
  const { gate, read, log } = gateWith();
  let freed = false;
  const heavy = read("heavy", 800);
  const waiting = read("waits", 60, () => !freed); // heavy: it waits for the others
  await sleep(120);
  freed = true;
  gate.wakeWaiting();
  expect(await waiting.done).toBe("waits");
  // Woken, not after the heavy read's 800 ms.
  expect(log).toEqual(["waits"]);
  await heavy.done;
});

it("any other error is the read's answer, not tried again", async () => {
  const { gate } = gateWith();
  let tries = 0;
  const other = new Error("Binder Error");
  await expect(gate.read(async () => (tries++, Promise.reject(other)))).rejects.toBe(other);
  expect(tries).toBe(1);
});
