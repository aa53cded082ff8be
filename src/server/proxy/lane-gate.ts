/**
 * Who may hold how many of a lane's upstream connections (bookkeeping and waiting, no I/O). A
 * client that sends its upload a byte at a time, or never reads a download, holds its
 * connection until the idle limits cut it (30 and 60 s); sixteen such uploads from one person
 * filled the uploads lane and every other person's upload waited behind them. So one holder (a
 * person, however many sessions; without one, a session or a client address) uses at most a
 * share of each lane at once; its further
 * requests wait for one of its own to finish (a script's burst of uploads still goes through,
 * a share at a time), and one that waits too long is told why (503). The others keep the rest
 * of the lane. A browser opens at most six connections to one origin: the app never waits here.
 *
 * When a lane is full all the same (many holders), a request queues for a connection; the gate
 * says so, so that a request that then times out is told the proxy was busy, not that the
 * service did not answer.
 */
import type { Lane } from "./routes";

/** Of each lane's connections, how many one holder may use at once. */
export const HOLDER_SHARE: Record<Lane, number> = { json: 16, files: 8, uploads: 6 };

/** Each lane in words, for the messages of the gate and of a request that waited on a full lane. */
export const LANE_WORDS: Record<Lane, string> = { json: "record calls", files: "file downloads", uploads: "uploads" };

export type LaneEntry = { ok: true; queued: boolean; leave(): void } | { ok: false; message: string };

export interface LaneGate {
  /** Resolves when the holder has a place in the lane, or has waited `waitMs` for one (or `signal` aborted). */
  enter(lane: Lane, holder: string, opts: { waitMs: number; signal?: AbortSignal }): Promise<LaneEntry>;
  /** In flight now (waiting not counted), for tests and the log. */
  inFlight(lane: Lane, holder?: string): number;
}

interface Holding {
  n: number;
  waiting: (() => void)[];
}

export function createLaneGate(capacity: Record<Lane, number>, share: Record<Lane, number> = HOLDER_SHARE): LaneGate {
  const total: Record<Lane, number> = { json: 0, files: 0, uploads: 0 };
  const held = new Map<string, Holding>();
  const keyOf = (lane: Lane, holder: string) => `${lane}\u0000${holder}`;

  function admit(lane: Lane, key: string, h: Holding): LaneEntry {
    const queued = total[lane] >= capacity[lane];
    h.n++;
    total[lane]++;
    let left = false;
    return {
      ok: true,
      queued,
      leave() {
        if (left) return;
        left = true;
        h.n--;
        total[lane]--;
        // The place goes to this holder's next waiting request, if any.
        const next = h.waiting.shift();
        if (next) next();
        else if (h.n === 0) held.delete(key);
      },
    };
  }

  return {
    enter(lane, holder, { waitMs, signal }) {
      const key = keyOf(lane, holder);
      let h = held.get(key);
      if (!h) held.set(key, (h = { n: 0, waiting: [] }));
      const holding = h;
      // Never more than the lane itself: with a small lane configured, its share is all of it.
      const limit = Math.min(share[lane], capacity[lane]);
      if (holding.n < limit && holding.waiting.length === 0) return Promise.resolve(admit(lane, key, holding));
      return new Promise<LaneEntry>((resolve) => {
        const turn = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", giveUp);
          resolve(admit(lane, key, holding));
        };
        const drop = (message: string) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", giveUp);
          const i = holding.waiting.indexOf(turn);
          if (i >= 0) holding.waiting.splice(i, 1);
          if (holding.n === 0 && holding.waiting.length === 0) held.delete(key);
          resolve({ ok: false, message });
        };
        const giveUp = () => drop("The client went away while waiting.");
        const timer = setTimeout(
          () => drop(`You had ${holding.n} ${LANE_WORDS[lane]} in progress, the most one person may have at once, and none finished within ${Math.round(waitMs / 1000)} s for this one to start. Try again when they have finished.`),
          waitMs,
        );
        signal?.addEventListener("abort", giveUp, { once: true });
        holding.waiting.push(turn);
      });
    },
    inFlight(lane, holder) {
      return holder === undefined ? total[lane] : (held.get(keyOf(lane, holder))?.n ?? 0);
    },
  };
}
