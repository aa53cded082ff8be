/** A real SSE client for tests (fetch + eventsource-parser): collects events, waits for one. */
import { createParser, type EventSourceMessage } from "eventsource-parser";

export interface SseClient {
  status: number;
  events: EventSourceMessage[];
  comments: string[];
  /** Resolves with the first event (already received or to come) that matches. */
  waitFor(pred: (e: EventSourceMessage) => boolean, timeoutMs?: number): Promise<EventSourceMessage>;
  close(): void;
  ended: Promise<void>;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: abort.signal });
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const waiters: { pred: (e: EventSourceMessage) => boolean; resolve(e: EventSourceMessage): void }[] = [];
  const parser = createParser({
    onEvent(e) {
      events.push(e);
      for (const w of [...waiters]) {
        if (!w.pred(e)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(e);
      }
    },
    onComment(c) {
      comments.push(c);
    },
  });
  const ended = (async () => {
    if (!res.body || res.status !== 200) return;
    const dec = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(dec.decode(chunk, { stream: true }));
    } catch {
      /* closed */
    }
  })();
  return {
    status: res.status,
    events,
    comments,
    ended,
    waitFor(pred, timeoutMs = 5000) {
      const hit = events.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const w = { pred, resolve };
        waiters.push(w);
        setTimeout(() => {
          const i = waiters.indexOf(w);
          if (i >= 0) {
            waiters.splice(i, 1);
            reject(new Error(`no matching event within ${timeoutMs} ms; got ${events.map((e) => `${e.event}:${e.data.slice(0, 120)}`).join(" | ") || "none"}`));
          }
        }, timeoutMs);
      });
    },
    close: () => abort.abort(),
  };
}

export const dataOf = <T = Record<string, unknown>>(e: EventSourceMessage) => JSON.parse(e.data) as T;
