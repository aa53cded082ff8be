/**
 * The allow list of the proxy (decisions §8): only the interface's endpoints and the local
 * service's extensions, method by method, matched on the raw path after refusing anything a
 * server could normalize into another path (dot segments, encoded dots and slashes, backslashes,
 * empty segments). What passes is forwarded byte for byte, so what we checked is what the
 * upstream sees.
 */

export type ApiRoute =
  | {
      kind: "forward";
      /** Path and query for the upstream, relative to BASE_URL (starts with /v0/). */
      upstreamPath: string;
      /** Endpoint name, for logs. */
      endpoint: string;
      /** Signed URLs carry their own authorization: no key is attached, no session needed. */
      signed: boolean;
      /** Which upstream connections it may use, so that uploads and downloads cannot starve queries. */
      lane: Lane;
      /** A JSON body (at most 1 MiB) the proxy reads whole before it takes an upstream connection. */
      jsonBody: boolean;
      /** What it does to which table or bucket (decoded from the path), for the permission check. */
      access: Access;
      /** The table (`db/slug`) or bucket its path names, decoded; undefined for the others. */
      target?: string;
    }
  | { kind: "reject"; message: string; status?: 400; /** The methods the path takes, for an `Allow` header. */ allow?: string };

const ANY = Symbol("segment");
const REST = Symbol("rest");
type Part = string | typeof ANY | typeof REST;

export type Lane = "json" | "files" | "uploads";

/**
 * What an endpoint does, for the permission table (src/server/team/grants): every endpoint must
 * say, so a new one cannot slip past the people check. `table`/`bucket`: on the table or bucket
 * its path names; `job`: a storage job, whose body says whether it deletes; `data-api`: the
 * alternate query path, whose table only the upstream's key knows; `meta`: the upstream's
 * description, filtered to what the person may see; `signed`: the signature is the authorization.
 */
export type Access =
  | { on: "table" | "bucket"; action: "read" | "write" | "delete" }
  | { on: "job" | "data-api" | "meta" | "signed" };

interface Endpoint {
  name: string;
  methods: string[];
  parts: Part[];
  access: Access;
  signed?: boolean;
}

/** Record calls carry small JSON bodies; files stream down; uploads (and anything else with a body) stream up. */
const JSON_BODY_ENDPOINTS = new Set(["query", "query-data-api", "update", "storage-job-start", "insert", "delete-records", "distinct", "upload-start", "upload-complete", "sign-many"]);
const FILE_ENDPOINTS = new Set(["get-file", "signed-file"]);
function laneOf(endpoint: string, method: string): Lane {
  if (FILE_ENDPOINTS.has(endpoint)) return "files";
  if (JSON_BODY_ENDPOINTS.has(endpoint) || method === "GET" || method === "HEAD" || method === "DELETE") return "json";
  return "uploads";
}

/** Interface endpoints 1–6 (with 1a), then the extensions of decisions §3 and §7. */
export const ENDPOINTS: Endpoint[] = [
  { name: "query", methods: ["POST"], parts: ["v0", "record", ANY, ANY, "query"], access: { on: "table", action: "read" } },
  { name: "query-data-api", methods: ["POST"], parts: ["v0", "data-api", "record", "query"], access: { on: "data-api" } },
  { name: "update", methods: ["POST"], parts: ["v0", "record", ANY, ANY, "update"], access: { on: "table", action: "write" } },
  { name: "upload", methods: ["POST"], parts: ["v0", "storage", "object", ANY], access: { on: "bucket", action: "write" } },
  { name: "get-file", methods: ["GET", "HEAD"], parts: ["v0", "storage", "public", ANY, REST], access: { on: "bucket", action: "read" } },
  { name: "sign-url", methods: ["GET", "HEAD"], parts: ["v0", "storage", "url", "sign", ANY, REST], access: { on: "bucket", action: "read" } },
  { name: "signed-file", methods: ["GET", "HEAD"], parts: ["v0", "storage", "sign", ANY, REST], access: { on: "signed" }, signed: true },
  // Many signed URLs in one request (the signMany extension): a read, as endpoint 5 is.
  { name: "sign-many", methods: ["POST"], parts: ["v0", "storage", "url", "sign", ANY], access: { on: "bucket", action: "read" } },
  { name: "fields", methods: ["GET"], parts: ["v0", "record", ANY, ANY, "fields"], access: { on: "table", action: "read" } },
  { name: "meta", methods: ["GET"], parts: ["v0", "meta"], access: { on: "meta" } },
  { name: "list", methods: ["GET"], parts: ["v0", "storage", "list", ANY], access: { on: "bucket", action: "read" } },
  { name: "delete", methods: ["DELETE"], parts: ["v0", "storage", "object", ANY, REST], access: { on: "bucket", action: "delete" } },
  { name: "import", methods: ["POST"], parts: ["v0", "record", ANY, ANY, "import"], access: { on: "table", action: "write" } },
  { name: "storage-job-start", methods: ["POST"], parts: ["v0", "storage", "jobs", ANY], access: { on: "job" } },
  { name: "storage-job", methods: ["GET"], parts: ["v0", "storage", "jobs", ANY, ANY], access: { on: "bucket", action: "read" } },
  { name: "storage-job-cancel", methods: ["DELETE"], parts: ["v0", "storage", "jobs", ANY, ANY], access: { on: "bucket", action: "write" } },
  { name: "storage-search", methods: ["GET"], parts: ["v0", "storage", "search", ANY], access: { on: "bucket", action: "read" } },
  { name: "storage-versions", methods: ["GET"], parts: ["v0", "storage", "versions", ANY, REST], access: { on: "bucket", action: "read" } },
  // A restore writes a new newest version (a server-side copy of the file): a write, in the uploads lane.
  { name: "storage-restore", methods: ["POST"], parts: ["v0", "storage", "restore", ANY, REST], access: { on: "bucket", action: "write" } },
  { name: "insert", methods: ["POST"], parts: ["v0", "record", ANY, ANY, "insert"], access: { on: "table", action: "write" } },
  { name: "delete-records", methods: ["POST"], parts: ["v0", "record", ANY, ANY, "delete"], access: { on: "table", action: "delete" } },
  { name: "distinct", methods: ["POST"], parts: ["v0", "record", ANY, ANY, "distinct"], access: { on: "table", action: "read" } },
  // Resumable uploads (issue 22.5): every step is part of writing a file, so each needs write;
  // the parts stream on the uploads lane, the rest are small JSON calls.
  { name: "upload-start", methods: ["POST"], parts: ["v0", "storage", "uploads", ANY], access: { on: "bucket", action: "write" } },
  { name: "upload-session", methods: ["GET", "DELETE"], parts: ["v0", "storage", "uploads", ANY, ANY], access: { on: "bucket", action: "write" } },
  { name: "upload-part", methods: ["PUT"], parts: ["v0", "storage", "uploads", ANY, ANY, "parts", ANY], access: { on: "bucket", action: "write" } },
  { name: "upload-complete", methods: ["POST"], parts: ["v0", "storage", "uploads", ANY, ANY, "complete"], access: { on: "bucket", action: "write" } },
];

// Encoded ".", "/" and "\" (also double-encoded), NUL and other controls, raw backslashes.
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const SUSPICIOUS = /%(25)*(2e|2f|5c|00)|\\|[\u0000-\u001f\u007f]/i;
// In an object key (a route's REST tail) "%2F" is a "/" of the key, decoded once by the service
// (README, Keys; review 47a #2: it was "No endpoint"); double-encoded it stays refused.
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const SUSPICIOUS_IN_KEY = /%(25)*(2e|5c|00)|%25(25)*2f|\\|[\u0000-\u001f\u007f]/i;

function matches(parts: Part[], segments: string[]): boolean {
  const rest = parts[parts.length - 1] === REST;
  if (rest ? segments.length < parts.length : segments.length !== parts.length) return false;
  return parts.every((p, i) => p === ANY || p === REST || p === segments[i]);
}

/** The table (`db/slug`, from the two segments after "record") or bucket (the first free segment) a path names. */
function targetOf(endpoint: Endpoint, segments: string[]): string | undefined {
  const free = endpoint.parts.flatMap((p, i) => (p === ANY ? [i] : []));
  if (free.length === 0) return undefined;
  const at = (i: number) => decodeURIComponent(segments[i]);
  if (endpoint.parts[1] === "record" && free.length >= 2) return `${at(free[0])}/${at(free[1])}`;
  return at(free[0]);
}

/** Checks the path of a request under /api/ (raw, still percent-encoded) against the allow list. */
export function matchApiRoute(method: string, rawUrl: string): ApiRoute {
  const q = rawUrl.indexOf("?");
  const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const query = q < 0 ? "" : rawUrl.slice(q);
  const notFound = { kind: "reject", message: `No endpoint ${method} ${rawPath.slice(0, 200)} on this proxy.` } as const;
  if (!rawPath.startsWith("/api/v0/")) return notFound;
  const segments = rawPath.slice("/api/".length).split("/");
  // A file's key with an empty folder name (a trailing / or //): decisions §7 makes that a 400
  // saying so, as the service does, not "no endpoint".
  if (/^\/api\/v0\/storage\/(object|public|versions|restore|url\/sign)\/[^/]+\/./.test(rawPath) && segments.slice(4).some((s) => s === "")) {
    return { kind: "reject", status: 400, message: "The object key has an empty folder name (// or a trailing /): a key names a file, not a folder; remove the extra /." };
  }
  // A file's key with a . or .. folder (as typed, or encoded): the 400 the service gives it
  // (decisions §7; review 57a #6: "No endpoint" for a documented one). Nothing is forwarded.
  if (/^\/api\/v0\/storage\/(object|public|versions|restore|url\/sign)\/[^/]+\/./.test(rawPath)) {
    let dotted: string | undefined;
    try {
      dotted = segments.slice(4).flatMap((s) => decodeURIComponent(s).split("/")).find((p) => p === "." || p === "..");
    } catch {
      dotted = undefined; // a malformed escape: said below
    }
    if (dotted) return { kind: "reject", status: 400, message: `The object key has a "${dotted}" segment; folder names cannot be . or ..` };
  }
  for (const s of segments) {
    if (s === "" || s === "." || s === "..") return notFound;
    try {
      const decoded = decodeURIComponent(s);
      if (decoded === "." || decoded === "..") return notFound;
    } catch {
      // As the service says it (review 47a #2: "No endpoint" for a documented one).
      return { kind: "reject", status: 400, message: "The path has a malformed %-escape: encode each path segment with encodeURIComponent." };
    }
  }
  const pathMatches = ENDPOINTS.filter((e) => matches(e.parts, segments));
  const endpoint = pathMatches.find((e) => e.methods.includes(method));
  const shape = endpoint ?? pathMatches[0];
  const keyFrom = shape && shape.parts[shape.parts.length - 1] === REST ? shape.parts.length - 1 : segments.length;
  const keyParts = segments.slice(keyFrom).flatMap((s) => decodeURIComponent(s).split("/"));
  if (SUSPICIOUS.test(segments.slice(0, keyFrom).join("/")) || SUSPICIOUS_IN_KEY.test(segments.slice(keyFrom).join("/")) || keyParts.some((p) => p === "." || p === "..")) return notFound;
  if (!endpoint) {
    if (pathMatches.length === 0) return notFound;
    const allowed = [...new Set(pathMatches.flatMap((e) => e.methods))].join(", ");
    return { kind: "reject", message: `${rawPath.slice(0, 200)} does not take ${method}; use ${allowed}.`, allow: allowed };
  }
  return {
    kind: "forward",
    upstreamPath: rawPath.slice("/api".length) + query,
    endpoint: endpoint.name,
    signed: !!endpoint.signed,
    lane: laneOf(endpoint.name, method),
    jsonBody: JSON_BODY_ENDPOINTS.has(endpoint.name),
    access: endpoint.access,
    target: targetOf(endpoint, segments),
  };
}
