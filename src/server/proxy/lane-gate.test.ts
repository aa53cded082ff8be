import { describe, expect, it } from "vitest";
import { createLaneGate, type LaneEntry } from "./lane-gate";

const left = (e: LaneEntry) => {
  if (!e.ok) throw new Error(e.message);
  e.leave();
};

describe("lane gate", () => {
  const capacity = { json: 64, files: 32, uploads: 16 };
  const share = { json: 16, files: 8, uploads: 6 };

  it("gives one holder its share of a lane; its next request waits for one of its own, the others' do not", async () => {
    const gate = createLaneGate(capacity, share);
    const mine = await Promise.all(Array.from({ length: 6 }, () => gate.enter("uploads", "ed", { waitMs: 5_000 })));
    expect(mine.every((e) => e.ok)).toBe(true);
    let seventh: LaneEntry | undefined;
    const waiting = gate.enter("uploads", "ed", { waitMs: 5_000 }).then((e) => (seventh = e));
    await new Promise((r) => setTimeout(r, 20));
    expect(seventh).toBeUndefined();
    // Someone else, and the same person on another lane, are not held back.
    expect((await gate.enter("uploads", "eve", { waitMs: 10 })).ok).toBe(true);
    expect((await gate.enter("files", "ed", { waitMs: 10 })).ok).toBe(true);
    // One of ed's finishes: the waiting one starts (leaving twice frees one place, not two).
    left(mine[0]);
    if (mine[0].ok) mine[0].leave();
    await waiting;
    expect(seventh).toMatchObject({ ok: true });
    expect(gate.inFlight("uploads", "ed")).toBe(6);
  });

  it("tells a request that waited too long why, and forgets it", async () => {
    const gate = createLaneGate(capacity, { ...share, uploads: 1 });
    const first = await gate.enter("uploads", "ed", { waitMs: 50 });
    const second = await gate.enter("uploads", "ed", { waitMs: 50 });
    expect(second).toMatchObject({ ok: false, message: expect.stringMatching(/^You had 1 uploads in progress, the most one person may have at once, and none finished within 0 s/) });
    // A client that goes away stops waiting at once.
    const ctl = new AbortController();
    const third = gate.enter("uploads", "ed", { waitMs: 5_000, signal: ctl.signal });
    ctl.abort();
    expect(await third).toMatchObject({ ok: false });
    left(first);
    expect(gate.inFlight("uploads", "ed")).toBe(0);
    expect((await gate.enter("uploads", "ed", { waitMs: 10 })).ok).toBe(true);
  });

  it("says when a request queues behind a full lane", async () => {
    const gate = createLaneGate({ json: 64, files: 32, uploads: 2 }, share);
    const a = await gate.enter("uploads", "a", { waitMs: 10 });
    const b = await gate.enter("uploads", "b", { waitMs: 10 });
    expect([a.ok && a.queued, b.ok && b.queued]).toEqual([false, false]);
    expect(await gate.enter("uploads", "c", { waitMs: 10 })).toMatchObject({ ok: true, queued: true });
    left(a);
    expect(gate.inFlight("uploads")).toBe(2);
  });
});
