/** The in-process bus's resume window (memory-bus.ts): what `since` promises, and when it says "refetch". */
import { describe, expect, it } from "vitest";
import { createMemoryBus } from "./memory-bus";

const event = (n: number) => ({ at: new Date().toISOString(), kind: "update" as const, resource: "table:demo/replay" as const, table: "demo/replay", records: [{ key: n }], actor: { email: "eve@example.com", name: "Eve" }, origin: "baseboard" as const });

/** A bus with events 0…n-1 published: their ids, and `since` as the Record keys it gives back. */
async function published(n: number, opts: { maxReplay: number; maxKept: number }) {
  const bus = createMemoryBus(opts);
  const ids: number[] = [];
  bus.onChange((e) => ids.push(e.id));
  for (let i = 0; i < n; i++) await bus.publish(event(i));
  return { ids, keys: async (id: number) => (await bus.since(id))?.map((e) => e.records?.[0].key) };
}

describe("memory bus: since", () => {
  it("gives every event after an id it kept, up to maxReplay of them; past that, or past the newest, undefined", async () => {
    const { ids, keys } = await published(4, { maxReplay: 3, maxKept: 5 });
    expect(await keys(ids[0])).toEqual([1, 2, 3]);
    expect(await keys(ids[3])).toEqual([]);
    // Four after it: more than may be replayed.
    expect(await keys(ids[0] - 1)).toBeUndefined();
    expect(await keys(ids[3] + 1)).toBeUndefined();
  });

  it("says undefined for an id older than what it keeps", async () => {
    const { ids, keys } = await published(7, { maxReplay: 10, maxKept: 5 });
    // Kept: the last 5 (2…6); 1 was dropped, so resuming from 0 could miss it.
    expect(await keys(ids[0])).toBeUndefined();
    expect(await keys(ids[1])).toEqual([2, 3, 4, 5, 6]);
  });
});
