/**
 * The bus in one process: ids from a counter that starts at the start time (so ids from before a
 * restart are older than any kept and resume as "refetch"), a ring of the last 10 minutes.
 */
import type { EventBus } from "./event-bus";
import { KEEP_MS, REPLAY_MAX } from "./event-bus";
import type { ChangeEvent, PresenceState } from "./live-event";

export function createMemoryBus(opts: { keepMs?: number; maxKept?: number; maxReplay?: number } = {}): EventBus {
  const keepMs = opts.keepMs ?? KEEP_MS;
  const maxReplay = opts.maxReplay ?? REPLAY_MAX;
  const maxKept = opts.maxKept ?? 100_000;
  const start = Date.now() * 1000;
  let next = start;
  const kept: { at: number; e: ChangeEvent }[] = [];
  /** The id of the newest event dropped from `kept`: resuming from before it would lose events. */
  let droppedUpTo = 0;
  const changeFns: ((e: ChangeEvent) => void)[] = [];
  const presenceFns: ((p: PresenceState) => void)[] = [];
  const trim = () => {
    const old = Date.now() - keepMs;
    let n = 0;
    while (n < kept.length && (kept[n].at < old || kept.length - n > maxKept)) n++;
    if (n) {
      droppedUpTo = kept[n - 1].e.id;
      kept.splice(0, n);
    }
  };
  return {
    async publish(e) {
      const event: ChangeEvent = { ...e, id: ++next };
      kept.push({ at: Date.now(), e: event });
      trim();
      for (const fn of changeFns) fn(event);
    },
    async presence(p) {
      for (const fn of presenceFns) fn(p);
    },
    onChange(fn) {
      changeFns.push(fn);
    },
    onPresence(fn) {
      presenceFns.push(fn);
    },
    async since(id) {
      trim();
      // From before this process started, from elsewhere, or older than what is kept: no
      // promise that nothing was missed, so the client refetches.
      if (id < start || id > next || id < droppedUpTo) return undefined;
      // Ids are consecutive here: the events after `id` are the last next - id of those kept.
      if (next - id > maxReplay) return undefined;
      return kept.slice(Math.max(0, kept.length - (next - id))).map((k) => k.e);
    },
    delivered() {
      return next;
    },
    async close() {
      changeFns.length = 0;
      presenceFns.length = 0;
    },
  };
}
