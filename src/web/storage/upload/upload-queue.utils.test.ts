import { describe, expect, it } from "vitest";
import {
  awaitingConfirmation,
  canRetry,
  initialQueue,
  isTransientStatus,
  itemsToStart,
  type QueueEvent,
  type QueueState,
  queueReducer,
  queueTotals,
  resumedText,
} from "./upload-queue.utils";

const add = (...ids: string[]): QueueEvent => ({
  type: "add",
  items: ids.map((id) => ({ id, bucket: "b", key: `f/${id}`, size: 100 })),
});
const run = (events: QueueEvent[], from: QueueState = initialQueue) => events.reduce(queueReducer, from);
const status = (s: QueueState) => Object.fromEntries(s.items.map((i) => [i.id, i.status]));

describe("upload queue transitions", () => {
  it.each<[string, QueueEvent[], Record<string, string>]>([
    ["new files are checked first", [add("a", "b")], { a: "checking", b: "checking" }],
    ["a new key is queued", [add("a"), { type: "checked", id: "a", exists: false }], { a: "queued" }],
    ["an existing key waits for confirmation", [add("a"), { type: "checked", id: "a", exists: true }], { a: "confirm" }],
    [
      "confirming queues it",
      [add("a"), { type: "checked", id: "a", exists: true }, { type: "confirm", ids: ["a"] }],
      { a: "queued" },
    ],
    ["skipping drops it", [add("a"), { type: "checked", id: "a", exists: true }, { type: "skip", ids: ["a"] }], { a: "skipped" }],
    [
      "start, progress and success",
      [add("a"), { type: "checked", id: "a", exists: false }, { type: "start", id: "a" }, { type: "succeeded", id: "a", versionedKey: "v1/f/a" }],
      { a: "done" },
    ],
    [
      "a failure keeps the service's message",
      [add("a"), { type: "checked", id: "a", exists: false }, { type: "start", id: "a" }, { type: "failed", id: "a", message: "too big" }],
      { a: "error" },
    ],
    ["cancel while checking", [add("a"), { type: "cancel", id: "a" }], { a: "cancelled" }],
    [
      "cancel while uploading, then retry",
      [add("a"), { type: "checked", id: "a", exists: false }, { type: "start", id: "a" }, { type: "cancel", id: "a" }, { type: "retry", id: "a" }],
      { a: "checking" },
    ],
    ["start is ignored unless queued", [add("a"), { type: "start", id: "a" }], { a: "checking" }],
    ["success is ignored after cancel", [add("a"), { type: "cancel", id: "a" }, { type: "succeeded", id: "a", versionedKey: "v" }], { a: "cancelled" }],
    ["retry is ignored while active", [add("a"), { type: "retry", id: "a" }], { a: "checking" }],
    [
      "retry is ignored after a failure that cannot pass",
      [add("a"), { type: "failed", id: "a", message: "bad name", retryable: false }, { type: "retry", id: "a" }],
      { a: "error" },
    ],
    [
      "a failure that may pass can be retried",
      [add("a"), { type: "failed", id: "a", message: "offline" }, { type: "retry", id: "a" }],
      { a: "checking" },
    ],
    ["adding the same id twice keeps one", [add("a"), add("a")], { a: "checking" }],
  ])("%s", (_name, events, expected) => expect(status(run(events))).toEqual(expected));

  it("does not ask twice after a confirmed replacement is retried", () => {
    const s = run([
      add("a"),
      { type: "checked", id: "a", exists: true },
      { type: "confirm", ids: ["a"] },
      { type: "start", id: "a" },
      { type: "failed", id: "a", message: "network" },
      { type: "retry", id: "a" },
      { type: "checked", id: "a", exists: true },
    ]);
    expect(status(s)).toEqual({ a: "queued" });
    expect(s.items[0].error).toBeUndefined();
  });

  it("keeps progress within the size, and lets it go back when sent bytes were lost", () => {
    let s = run([add("a"), { type: "checked", id: "a", exists: false }, { type: "start", id: "a" }]);
    // A part cut off at 60 of its bytes: only the 40 stored before it still count.
    s = run([{ type: "progress", id: "a", loaded: 60 }, { type: "progress", id: "a", loaded: 40 }], s);
    expect(s.items[0].loaded).toBe(40);
    s = queueReducer(s, { type: "progress", id: "a", loaded: 1000 });
    expect(s.items[0].loaded).toBe(100);
    s = queueReducer(s, { type: "progress", id: "a", loaded: -5 });
    expect(s.items[0].loaded).toBe(0);
  });

  it("marks an upload waiting for the connection, and forgets it when the upload ends", () => {
    let s = run([add("a"), { type: "checked", id: "a", exists: false }, { type: "start", id: "a" }]);
    s = queueReducer(s, { type: "waiting", id: "a", waiting: true });
    expect(s.items[0]).toMatchObject({ status: "uploading", waiting: true });
    expect(queueReducer(s, { type: "waiting", id: "a", waiting: false }).items[0].waiting).toBeUndefined();
    expect(queueReducer(s, { type: "cancel", id: "a" }).items[0].waiting).toBeUndefined();
    expect(queueReducer(s, { type: "succeeded", id: "a", versionedKey: "v" }).items[0].waiting).toBeUndefined();
    // Only an upload in flight waits.
    const queued = run([add("b"), { type: "checked", id: "b", exists: false }]);
    expect(queueReducer(queued, { type: "waiting", id: "b", waiting: true })).toBe(queued);
  });

  it("returns the same state object for ignored events", () => {
    const s = run([add("a")]);
    expect(queueReducer(s, { type: "start", id: "a" })).toBe(s);
    expect(queueReducer(s, { type: "progress", id: "zzz", loaded: 1 })).toBe(s);
  });

  it("dismisses a finished or failed item, never an active one", () => {
    const s = run([add("a", "b"), { type: "cancel", id: "a" }, { type: "dismiss", id: "a" }, { type: "dismiss", id: "b" }]);
    expect(status(s)).toEqual({ b: "checking" });
  });

  it("clears finished items but keeps active and failed ones", () => {
    const s = run([
      add("a", "b", "c", "d"),
      { type: "checked", id: "a", exists: false },
      { type: "start", id: "a" },
      { type: "succeeded", id: "a", versionedKey: "v1/f/a" },
      { type: "checked", id: "b", exists: false },
      { type: "start", id: "b" },
      { type: "failed", id: "b", message: "x" },
      { type: "cancel", id: "c" },
      { type: "clearFinished" },
    ]);
    expect(status(s)).toEqual({ b: "error", d: "checking" });
  });
});

describe("what can be retried", () => {
  it.each<[string, QueueEvent[], boolean]>([
    ["cancelled", [add("a"), { type: "cancel", id: "a" }], true],
    ["failed, may pass", [add("a"), { type: "failed", id: "a", message: "x" }], true],
    ["failed for good", [add("a"), { type: "failed", id: "a", message: "x", retryable: false }], false],
    ["still checking", [add("a")], false],
    ["done", [add("a"), { type: "checked", id: "a", exists: false }, { type: "start", id: "a" }, { type: "succeeded", id: "a", versionedKey: "v" }], false],
  ])("%s", (_n, events, expected) => expect(canRetry(run(events).items[0])).toBe(expected));

  it.each([
    [0, true],
    [408, true],
    [429, true],
    [500, true],
    [502, true],
    [400, false],
    [403, false],
    [404, false],
    [413, false],
  ])("HTTP %i may pass by itself: %s", (status, expected) => expect(isTransientStatus(status)).toBe(expected));
});

describe("one confirmation for a batch", () => {
  it("asks nothing while any check is out, then once for every existing file", () => {
    const s = run([add("a", "b", "c"), { type: "checked", id: "a", exists: true }, { type: "checked", id: "b", exists: false }]);
    expect(awaitingConfirmation(s)).toEqual([]);
    const all = run([{ type: "checked", id: "c", exists: true }], s);
    expect(awaitingConfirmation(all).map((i) => i.id)).toEqual(["a", "c"]);
  });
});

describe("bounded concurrency", () => {
  it("starts at most N at once, oldest first", () => {
    const ids = ["a", "b", "c", "d", "e"];
    let s = run([add(...ids), ...ids.map((id): QueueEvent => ({ type: "checked", id, exists: false }))]);
    expect(itemsToStart(s, 3)).toEqual(["a", "b", "c"]);
    s = run(itemsToStart(s, 3).map((id): QueueEvent => ({ type: "start", id })), s);
    expect(itemsToStart(s, 3)).toEqual([]);
    s = queueReducer(s, { type: "succeeded", id: "b", versionedKey: "v" });
    expect(itemsToStart(s, 3)).toEqual(["d"]);
  });
});

describe("totals", () => {
  it("counts bytes of live and finished files only, so the bar can finish", () => {
    const s = run([
      add("a", "b", "c"),
      { type: "checked", id: "a", exists: false },
      { type: "start", id: "a" },
      { type: "progress", id: "a", loaded: 50 },
      { type: "checked", id: "b", exists: false },
      { type: "start", id: "b" },
      { type: "failed", id: "b", message: "x" },
      { type: "checked", id: "c", exists: true },
    ]);
    const t = queueTotals(s);
    expect(t).toMatchObject({ total: 200, loaded: 50, fraction: 0.25, busy: true });
    expect(t.counts).toMatchObject({ uploading: 1, error: 1, confirm: 1 });
    expect(awaitingConfirmation(s).map((i) => i.id)).toEqual(["c"]);
    const done = run([{ type: "skip", ids: ["c"] }, { type: "succeeded", id: "a", versionedKey: "v" }], s);
    expect(queueTotals(done)).toMatchObject({ total: 100, loaded: 100, fraction: 1, busy: false });
    expect(queueTotals(initialQueue).fraction).toBe(1);
  });
});

describe("a resumed upload", () => {
  it("starts from the bytes the service had, says so, and keeps it when done", () => {
    const s = run([add("a"), { type: "checked", id: "a", exists: false }, { type: "start", id: "a" }, { type: "resumed", id: "a", loaded: 48 }]);
    expect(s.items[0]).toMatchObject({ loaded: 48, resumedAt: 48 });
    expect(resumedText(s.items[0])).toBe("Resumed at 48%");
    const done = run([{ type: "progress", id: "a", loaded: 70 }, { type: "succeeded", id: "a", versionedKey: "v1/f/a" }], s);
    expect(resumedText(done.items[0])).toBe("Resumed at 48%");
    // Started again from scratch (a retry): no longer says it resumed until it does.
    const again = run([{ type: "failed", id: "a", message: "x" }, { type: "retry", id: "a" }, { type: "checked", id: "a", exists: false }, { type: "start", id: "a" }], s);
    expect(resumedText(again.items[0])).toBeUndefined();
  });

  it("goes on after waiting for the connection from what was stored, and says where (review 51b #6)", () => {
    const s = run([add("a"), { type: "checked", id: "a", exists: false }, { type: "start", id: "a" }, { type: "progress", id: "a", loaded: 39 }, { type: "waiting", id: "a", waiting: true }, { type: "progress", id: "a", loaded: 26 }]);
    expect(s.items[0]).toMatchObject({ waiting: true, loaded: 26 });
    expect(resumedText(s.items[0])).toBeUndefined();
    const back = run([{ type: "waiting", id: "a", waiting: false }], s);
    expect(back.items[0].waiting).toBeUndefined();
    expect(resumedText(back.items[0])).toBe("Resumed at 26%");
    // A "go on" without a wait before it says nothing new.
    expect(resumedText(run([{ type: "waiting", id: "a", waiting: false }], run([add("b"), { type: "checked", id: "b", exists: false }, { type: "start", id: "b" }])).items.find((i) => i.id === "b")!)).toBeUndefined();
  });
});
