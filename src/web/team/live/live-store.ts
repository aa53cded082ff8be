/**
 * What the live stream has told this tab: cells to flash (changed by someone else, briefly),
 * Records changed under the open panel, and who else is where (presence). UI state only; the
 * data itself is patched in TanStack Query's cache (apply-change.ts).
 */
import { create } from "zustand";
import { recordKeyText } from "../../../shared/records";
import type { LivePresence } from "./live-types";

export const FLASH_MS = 2500;

/** "<db>/<table>|<pk text>" → { field → flash until } */
type Flashes = Map<string, Map<string, number>>;

interface LiveState {
  connected: boolean;
  flashes: Flashes;
  /** "<db>/<table>|<pk text>" → who changed it and when (for the record panel's notice). */
  changedUnder: Map<string, { name: string; email: string; at: string; deleted?: true; back?: true }>;
  /** "<email>\n<tab>" → where that tab is. */
  presence: Map<string, LivePresence>;
  /** Per bucket: what others just did there (newest first, a few). */
  bucketNews: Map<string, BucketNews[]>;
}

export interface BucketNews {
  id: number;
  at: string;
  who: string;
  what: "new" | "replaced" | "deleted" | "moved" | "copied" | "moved or copied";
  /** A job's source and destination, and how many files it took (when known). */
  from?: string;
  to?: string;
  count?: number;
  /** The job was cancelled part way (`count` files done). */
  cancelled?: boolean;
  keys: string[];
}

export const useLiveStore = create<LiveState>(() => ({ connected: false, flashes: new Map(), changedUnder: new Map(), presence: new Map(), bucketNews: new Map() }));

export const rowKey = (table: string, pk: unknown) => `${table}|${recordKeyText(pk)}`;

export const liveActions = {
  setConnected(connected: boolean) {
    if (useLiveStore.getState().connected !== connected) useLiveStore.setState({ connected });
  },
  flash(table: string, cells: { pk: unknown; fields: string[] }[], by: { name: string; email: string }, at: string, deleted = false) {
    const until = Date.now() + FLASH_MS;
    const flashes = new Map(useLiveStore.getState().flashes);
    const changedUnder = new Map(useLiveStore.getState().changedUnder);
    for (const c of cells) {
      const k = rowKey(table, c.pk);
      const m = new Map(flashes.get(k) ?? []);
      for (const f of c.fields) m.set(f, until);
      flashes.set(k, m);
      changedUnder.set(k, deleted ? { ...by, at, deleted } : { ...by, at });
    }
    // Only an open panel reads these: keep the newest few hundred.
    for (const k of changedUnder.keys()) {
      if (changedUnder.size <= 500) break;
      changedUnder.delete(k);
    }
    useLiveStore.setState({ flashes, changedUnder });
    setTimeout(() => liveActions.expireFlashes(), FLASH_MS + 50);
  },
  expireFlashes() {
    const now = Date.now();
    const flashes = new Map<string, Map<string, number>>();
    for (const [k, m] of useLiveStore.getState().flashes) {
      const left = new Map([...m].filter(([, until]) => until > now));
      if (left.size) flashes.set(k, left);
    }
    useLiveStore.setState({ flashes });
  },
  /**
   * Records added: those a notice says were deleted are back (an Undo of the delete, say): the
   * notice says who brought them back (review 48b #3: "Deleted by …" stayed over the values).
   */
  broughtBack(table: string, pks: unknown[], by: { name: string; email: string }, at: string) {
    const all = useLiveStore.getState().changedUnder;
    const back = pks.map((pk) => rowKey(table, pk)).filter((k) => all.get(k)?.deleted);
    if (!back.length) return;
    const changedUnder = new Map(all);
    for (const k of back) changedUnder.set(k, { ...by, at, back: true });
    useLiveStore.setState({ changedUnder });
  },
  clearChangedUnder(key: string) {
    const changedUnder = new Map(useLiveStore.getState().changedUnder);
    if (changedUnder.delete(key)) useLiveStore.setState({ changedUnder });
  },
  presence(p: LivePresence) {
    const presence = new Map(useLiveStore.getState().presence);
    const k = `${p.email}\n${p.tab}`;
    if (p.view === null) presence.delete(k);
    else presence.set(k, p);
    useLiveStore.setState({ presence });
  },
  bucketNews(bucket: string, news: BucketNews) {
    const all = new Map(useLiveStore.getState().bucketNews);
    all.set(bucket, [news, ...(all.get(bucket) ?? [])].slice(0, 5));
    useLiveStore.setState({ bucketNews: all });
  },
  clearBucketNews(bucket: string) {
    const all = new Map(useLiveStore.getState().bucketNews);
    if (all.delete(bucket)) useLiveStore.setState({ bucketNews: all });
  },
  expirePresence() {
    const now = Date.now();
    const all = useLiveStore.getState().presence;
    const presence = new Map([...all].filter(([, p]) => p.until > now));
    if (presence.size !== all.size) useLiveStore.setState({ presence });
  },
};
