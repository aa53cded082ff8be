/**
 * The service's own event extension (advertised as `events` in /v0/meta): GET /v0/events, a
 * server-sent stream of the changes this service applied, whoever made them. A Baseboard proxy
 * subscribes to it so that changes made by other clients of the service are live in the app too;
 * the proxy marks its own forwarded changes (`x-baseboard-origin`) and they come out with
 * `origin: "baseboard"`, so it does not publish them twice. Kept: the last 10 minutes (at most
 * 10,000 events) for Last-Event-ID; a reader that stops reading is dropped past 1 MiB unsent.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { requireKey } from "../auth";

export interface ServiceChange {
  id: number;
  at: string;
  kind: "update" | "insert" | "delete-records" | "import" | "upload" | "delete-file" | "storage-job";
  table?: string;
  bucket?: string;
  /** Inserted Records (their values), when the request carried them. */
  records?: Record<string, unknown>[];
  /** Object keys (storage). */
  keys?: string[];
  /** The Fields an update set. */
  fields?: string[];
  count?: number;
  origin: "baseboard" | "outside";
}

const KEEP_MS = 10 * 60_000;
const KEEP_MAX = 10_000;
const MAX_UNSENT = 1024 * 1024;
const HEARTBEAT_MS = 25_000;

type Params = Record<string, string | undefined>;

/** Which change a successful request made, from its route and body; undefined for reads. */
export function changeOf(method: string, route: string | undefined, params: Params, body: unknown, answer: string, headers: Record<string, unknown>): Omit<ServiceChange, "id" | "at" | "origin"> | undefined {
  if (!route) return undefined;
  const table = params.database_id && params.table_slug ? `${params.database_id}/${params.table_slug}` : undefined;
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const json = () => {
    try {
      return JSON.parse(answer) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  if (method === "POST" && route.endsWith("/update") && table) {
    const matched = Number(headers["x-matched-count"]);
    const values = Array.isArray(b.values) ? (b.values as { key?: unknown }[]) : [];
    return { kind: "update", table, fields: values.map((v) => String(v.key)), ...(Number.isFinite(matched) ? { count: matched } : {}) };
  }
  if (method === "POST" && route.endsWith("/insert") && table) {
    const records = Array.isArray(b.records) ? (b.records as Record<string, unknown>[]) : [];
    return { kind: "insert", table, count: records.length, records: records.length <= 1000 ? records : undefined };
  }
  if (method === "POST" && route.endsWith("/delete") && table) return { kind: "delete-records", table, count: json().count as number | undefined };
  if (method === "POST" && route.endsWith("/import") && table) return { kind: "import", table, count: json().count as number | undefined };
  // A restore makes a new newest version of a key, exactly as an upload over it does.
  if (method === "POST" && (route === "/v0/storage/object/:bucket" || route === "/v0/storage/restore/:bucket/*" || route === "/v0/storage/uploads/:bucket/:id/complete")) {
    const key = json().key;
    return { kind: "upload", bucket: params.bucket, keys: typeof key === "string" ? [key.replace(/^v\d+\//, "")] : [] };
  }
  if (method === "DELETE" && route === "/v0/storage/object/:bucket/*") return { kind: "delete-file", bucket: params.bucket, keys: [String(params["*"] ?? "")] };
  if ((method === "POST" || method === "DELETE") && route.startsWith("/v0/storage/jobs/:bucket")) {
    const keys = [b.from, b.to].filter((k): k is string => typeof k === "string");
    return { kind: "storage-job", bucket: params.bucket, keys };
  }
  return undefined;
}

export function registerChangeFeed(app: FastifyInstance): { close(): void } {
  const kept: ServiceChange[] = [];
  const start = Date.now() * 1000;
  let next = start;
  let droppedUpTo = 0;
  const readers = new Set<FastifyReply>();

  const send = (reply: FastifyReply, c: ServiceChange) => {
    const raw = reply.raw;
    if (raw.destroyed) return void readers.delete(reply);
    // A reader still holding the last events unread has stopped reading: drop it (it resumes).
    if (raw.writableLength > MAX_UNSENT) {
      readers.delete(reply);
      return void raw.destroy();
    }
    raw.write(`id: ${c.id}\nevent: change\ndata: ${JSON.stringify(c)}\n\n`);
  };

  app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode >= 300 || request.method === "GET" || request.method === "HEAD") return payload;
    const c = changeOf(request.method, request.routeOptions.url, (request.params ?? {}) as Params, request.body, typeof payload === "string" ? payload : "", reply.getHeaders());
    if (!c) return payload;
    const change: ServiceChange = { ...c, id: ++next, at: new Date().toISOString(), origin: request.headers["x-baseboard-origin"] ? "baseboard" : "outside" };
    kept.push(change);
    const old = Date.now() - KEEP_MS;
    while (kept.length && (kept.length > KEEP_MAX || Date.parse(kept[0].at) < old)) droppedUpTo = (kept.shift() as ServiceChange).id;
    for (const r of readers) send(r, change);
    return payload;
  });

  const heartbeat = setInterval(() => {
    for (const r of readers) if (!r.raw.destroyed) r.raw.write(": heartbeat\n\n");
  }, HEARTBEAT_MS);
  heartbeat.unref();

  app.get("/v0/events", async (request, reply) => {
    const key = requireKey(request);
    if (key.scope) {
      return reply.code(403).send({ error: "forbidden", subCode: 0, message: "The event stream needs a key for the whole service, not one scoped to a table." });
    }
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive" });
    raw.write("retry: 2000\n\n");
    const last = request.headers["last-event-id"];
    if (typeof last === "string" && /^\d+$/.test(last)) {
      const id = Number(last);
      if (id < start || id > next || id < droppedUpTo) raw.write(`event: reset\ndata: {}\n\n`);
      else for (const c of kept) if (c.id > id) send(reply, c);
    }
    readers.add(reply);
    raw.on("close", () => readers.delete(reply));
  });

  return {
    close() {
      clearInterval(heartbeat);
      for (const r of readers) r.raw.end();
      readers.clear();
    },
  };
}
