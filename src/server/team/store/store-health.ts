/**
 * Whether Baseboard's own store (people, sessions, the activity log) answers, for /api/health.
 * Every change is refused while it does not (the trail fails closed), so the badge must say so
 * rather than stay green. One trivial query serves every caller for `ttlMs`, however many tabs
 * poll; a store that does not answer within `timeoutMs` (a hung PostgreSQL) is as down as one
 * that refuses.
 */
export type StoreState = "up" | "down";

export interface StoreHealthOptions {
  ttlMs?: number;
  timeoutMs?: number;
  now?: () => number;
}

export function createStoreHealth(ping: () => Promise<void>, opts: StoreHealthOptions = {}): () => Promise<StoreState> {
  const ttlMs = opts.ttlMs ?? 1000;
  const timeoutMs = opts.timeoutMs ?? 2000;
  const now = opts.now ?? Date.now;
  let last: { at: number; state: StoreState } | undefined;
  let inFlight: Promise<StoreState> | undefined;

  const check = async (): Promise<StoreState> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<StoreState>((resolve) => {
      timer = setTimeout(() => resolve("down"), timeoutMs);
    });
    try {
      return await Promise.race([ping().then((): StoreState => "up", (): StoreState => "down"), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  return () => {
    if (last && now() - last.at < ttlMs) return Promise.resolve(last.state);
    inFlight ??= check().then((state) => {
      last = { at: now(), state };
      inFlight = undefined;
      return state;
    });
    return inFlight;
  };
}
