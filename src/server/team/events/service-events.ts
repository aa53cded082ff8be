/**
 * Changes made outside Baseboard: when the upstream offers the service's event extension
 * (`capabilities.events`, GET /v0/events), the proxy follows that stream and publishes every
 * change not made through a Baseboard proxy (origin "outside"), so other clients' changes are
 * live too. It resumes with Last-Event-ID after a break; the service's event id makes the
 * publish idempotent, so several proxies following one service publish each change once.
 * Against an upstream without it nothing is followed (the app then refreshes on focus). It
 * starts with the first subscriber of /api/events: a proxy nobody watches asks nothing.
 */
import { createParser } from "eventsource-parser";
import type { Upstream } from "../../proxy/forward";
import type { Resource } from "../contract";
import type { LiveHub } from "./live-hub";
import { EVENT_RECORDS_MAX, type NewChangeEvent } from "./live-event";

interface ServiceChange {
  id: number;
  at: string;
  kind: NewChangeEvent["kind"];
  table?: string;
  bucket?: string;
  records?: Record<string, unknown>[];
  keys?: string[];
  fields?: string[];
  count?: number;
  origin: "baseboard" | "outside";
}

export const OUTSIDE_ACTOR = { email: "outside", name: "Another client of the service" };

export function outsideEvent(c: ServiceChange): NewChangeEvent | undefined {
  if (c.origin !== "outside") return undefined;
  const resource = (c.table ? `table:${c.table}` : c.bucket ? `bucket:${c.bucket}` : undefined) as Resource | undefined;
  if (!resource) return undefined;
  const base = { at: c.at, kind: c.kind, resource, ...(c.table ? { table: c.table } : { bucket: c.bucket }), actor: OUTSIDE_ACTOR, origin: "outside" as const, ...(c.count !== undefined ? { count: c.count } : {}) };
  if (c.bucket) return { ...base, keys: (c.keys ?? []).slice(0, EVENT_RECORDS_MAX) };
  // The service does not say which Records an update or delete picked: the app refetches.
  if (c.kind === "insert" && c.records) return { ...base, records: c.records.map((values) => ({ key: undefined, values })) };
  return { ...base, ...(c.fields ? { fields: c.fields } : {}), truncated: true };
}

export function followServiceEvents(o: { upstream: Upstream; hub: Pick<LiveHub, "publish">; log(line: string): void; retryMs?: number }): () => void {
  const abort = new AbortController();
  let lastId: string | undefined;
  let said = false;
  const retryMs = o.retryMs ?? 2000;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

  async function once(): Promise<"again" | "never"> {
    // On its own connection (not the pool the browser's requests wait for).
    const meta = await o.upstream.openStream("/v0/meta", { accept: "application/json" }, abort.signal).catch(() => undefined);
    if (!meta) return "again"; // not up yet
    const body = (await meta.json().catch(() => undefined)) as { capabilities?: { events?: boolean } } | undefined;
    if (meta.status === 404 || (meta.status === 200 && !body?.capabilities?.events)) return "never";
    if (meta.status !== 200) return "again";
    const res = await o.upstream.openStream("/v0/events", { accept: "text/event-stream", ...(lastId ? { "last-event-id": lastId } : {}) }, abort.signal);
    if (res.status !== 200 || !res.body) {
      await res.body?.cancel().catch(() => {});
      return res.status === 404 || res.status === 403 ? "never" : "again";
    }
    if (!said) o.log("live events: following the service's own changes (changes by other clients are live too)");
    said = true;
    const parser = createParser({
      onEvent(ev) {
        if (ev.id) {
          // A service restarted: its ids start again from its start time, ours are from the old one.
          lastId = ev.id;
        }
        if (ev.event !== "change") return;
        let change: ServiceChange;
        try {
          change = JSON.parse(ev.data) as ServiceChange;
        } catch {
          return;
        }
        const event = outsideEvent(change);
        if (event) o.hub.publish(event, `svc:${change.id}`).catch((e) => o.log(`live events: could not publish an outside change: ${(e as Error).message}`));
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
    return "again";
  }

  void (async () => {
    while (!abort.signal.aborted) {
      const r = await once().catch(() => "again" as const);
      if (r === "never" || abort.signal.aborted) return;
      await sleep(retryMs);
    }
  })();
  return () => abort.abort();
}
