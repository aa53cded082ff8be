/**
 * The seam between the live hub and its fan-out: in one process (memory-bus.ts) or across
 * proxies over PostgreSQL LISTEN/NOTIFY (postgres-bus.ts). The bus gives change events their ids
 * and keeps them for resuming; presence is passed on and not kept.
 */
import type { ChangeEvent, NewChangeEvent, PresenceState } from "./live-event";

export interface EventBus {
  /** Gives the event its id and delivers it to every proxy's listeners (this one included). */
  publish(e: NewChangeEvent, dedupe?: string): Promise<void>;
  presence(p: PresenceState): Promise<void>;
  onChange(fn: (e: ChangeEvent) => void): void;
  onPresence(fn: (p: PresenceState) => void): void;
  /**
   * Events after `id`, oldest first; undefined when events after it may have been dropped
   * already (older than what is kept), or when more than REPLAY_MAX came after it: the client
   * must refetch instead of resuming (a backlog cut short would lose events without a word).
   */
  since(id: number): Promise<ChangeEvent[] | undefined>;
  /**
   * The newest id this proxy's listeners have been given: every event after it is still to reach
   * them. A stream opened now resumes from here (its first frame carries it as its id).
   */
  delivered(): number;
  close(): Promise<void>;
}

/** Kept for resuming: at least this long (the issue asks 5 minutes). */
export const KEEP_MS = 10 * 60_000;
/**
 * Resuming replays at most this many events; past them a refetch (the "reset" event) is quicker
 * for the client than catching up one event at a time, and the proxy builds no such backlog.
 */
export const REPLAY_MAX = 5_000;
