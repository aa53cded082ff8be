/** The in-process bus's resume window (memory-bus.ts): what `since` promises, and when it says "refetch". */
import { describe, expect, it } from "vitest";
import { createMemoryBus } from "./memory-bus";

const event = (n: number) => ({ at: new Date().toISOString(), kind: "update" as const, resource: "table:demo/replay" as const, table: "demo/replay", records: [{ key: n }], actor: { email: "eve@example.com", name: "Eve" }, origin: "baseboard" as const });

describe("memory bus: since", () => {
  it("gives every event after an id it kept, up to maxReplay of them; past that, or before what it kept, undefined", async () => {
    const bus = createMemoryBus({ maxReplay: 3, maxKept: 5 });
    const ids: number[] = [];
    bus.onChange((e) => ids.push(e.id));
    for (let i = 0; i < 4; i++) await bus.publish(event(i));
    const keys = async (id: number) => (await bus.since(id))?.map((e) => e.records?.[0].key);
    expect(await keys(ids[0])).toEqual([1, 2, 3]);
    expect(await keys(ids[3])).toEqual([]);
    // Four after it: more than may be replayed.
    expect(await keys(ids[0] - 1)).toBeUndefined();
    expect(await keys(ids[3] + 1)).toBeUndefined();
  });

  it("says undefined for an id older than what it keeps", async () => {
    const bus = createMemoryBus({ maxReplay: 10, maxKept: 5 });
    const ids: number[] = [];
    bus.onChange((e) => ids.push(e.id));
    for (let i = 0; i < 7; i++) await bus.publish(event(i));
    const keys = async (id: number) => (await bus.since(id))?.map((e) => e.records?.[0].key);
    // Kept: the last 5 (2…6); 1 was dropped, so resuming from 0 could miss it.
    expect(await keys(ids[0])).toBeUndefined();
    expect(await keys(ids[1])).toEqual([2, 3, 4, 5, 6]);
  });
});
