/**
 * HTTP routes of the Record capability (interface §4.1, §4.2; decisions §3–§6). Handlers are
 * thin: check the key, find the table, validate the body at the edge, call the store.
 */
import type { FastifyInstance, FastifyRequest, HTTPMethods } from "fastify";
import type { ZodType } from "zod";
import {
  describeSchemaError,
  type FieldsResponse,
  type QueryResult,
  queryBodySchema,
  updateBodySchema,
} from "../../../shared/records";
import { badRequest, forbidden, HttpError, notFound } from "../../http-error";
import {
  BEFORE_IMAGES_HEADER,
  type BeforeImages,
  deleteBodySchema,
  distinctBodySchema,
  type DistinctResponse,
  insertBodySchema,
  type WriteCount,
} from "../../../shared/record-writes";
import { jsonPathAt, parseJsonText, pathText } from "../../../shared/json-text";
import { notJsonType, notUtf8 } from "../../json-request";
import { roundedNumberIn } from "../../../shared/values";
import { requireKey, scopeAllows } from "../auth";
import { deleteRecords, insertRecords } from "./record-writes";
import { distinctValues } from "./record-distinct";
import type { StoredTable } from "./registry";
import { beforeImagesAsked } from "./before-images";
import { IMPORT_PATH, registerImportRoute } from "./import/route";
import type { RecordStore } from "./store";

type TableParams = { database_id: string; table_slug: string };

/**
 * The Record endpoints' own body parser: JSON with `application/json` (any charset) or with no
 * Content-Type at all (what a bare `curl --data` or a hand-written client sends), an empty body
 * as "no body" (every query property is optional), any other type a 400 saying what to send.
 */
function registerJsonBodyParser(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser("*", { parseAs: "buffer" }, (request, bytes, done) => {
    const problem = notJsonType(request.headers["content-type"]) ?? notUtf8(bytes as Buffer);
    if (problem) return done(badRequest(problem), undefined);
    const body = (bytes as Buffer).toString("utf8");
    const read = parseJsonText(body);
    if (!read.ok) return done(badRequest(read.message), undefined);
    // Numbers are never rounded (issue 24 item 4): one JSON.parse would change is said, not stored changed.
    const rounded = roundedNumberIn(body as string);
    if (rounded) {
      // Named where it is (review 32a #2): `records[2].bonus`, `values[1] ("age")`.
      const text = body as string;
      const where = numberPlace(jsonPathAt(text, rounded.at - (text.charCodeAt(0) === 0xfeff ? 1 : 0)), read.value);
      return done(badRequest(`${where ? `${where}: the` : "The"} number ${rounded.written} would be read as ${rounded.stored}: a number keeps about 15 to 17 significant digits. Send it with fewer digits, or keep such values in a text Field.`), undefined);
    }
    done(null, read.value);
  });
}

/**
 * A number's place in a request body, as a person finds it: the path, and for a `{"key", "value"}`
 * pair (an update's values, a filter condition) the Field it is for.
 */
function numberPlace(path: (string | number)[], body: unknown): string {
  if (path.length === 0) return "";
  const where = pathText(path);
  if (path[path.length - 1] !== "value") return where;
  let pair: unknown = body;
  for (const p of path.slice(0, -1)) pair = pair && typeof pair === "object" ? (pair as Record<string | number, unknown>)[p] : undefined;
  const key = pair && typeof pair === "object" ? (pair as { key?: unknown }).key : undefined;
  return typeof key === "string" ? `${where} (Field "${key}")` : where;
}

function parseBody<T>(schema: ZodType<T>, request: FastifyRequest, name: string): T {
  // No body at all is an empty query (every property is optional); a literal null is not an object.
  const parsed = schema.safeParse(request.body === undefined ? {} : request.body);
  if (!parsed.success) throw badRequest(describeSchemaError(parsed.error, name));
  return parsed.data;
}

/** Another method on a Record path: 404 in the error shape, saying which method the path takes. */
function wrongMethod(scope: FastifyInstance, url: string, methods: HTTPMethods[], allowed: string): void {
  scope.route({
    method: methods,
    url,
    handler: async (request, reply) => {
      reply.header("allow", allowed);
      throw notFound(`No endpoint ${request.method} ${request.url.split("?")[0]}: this path takes ${allowed}.`);
    },
  });
}

function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: Parameters<typeof HttpError.from>[0] }): T {
  if (!result.ok) throw HttpError.from(result.error);
  return result.value;
}

export interface RecordRouteOptions {
  /** Largest CSV body for the import extension (413 beyond). */
  maxImportBytes: number;
  /** Where import bodies are spooled. */
  spoolDir: string;
}

export function registerRecordRoutes(root: FastifyInstance, store: RecordStore, options: RecordRouteOptions): void {
  // An encapsulated scope, so that the body parser above applies to the Record routes only.
  void root.register(async (app) => {
    registerJsonBodyParser(app);
    registerRoutes(app, store);
  });
  registerImportRoute(root, store, {
    maxBytes: options.maxImportBytes,
    spoolDir: options.spoolDir,
    authorize: async (request, databaseId, slug) => {
      await tableAccess(request, store, databaseId, slug, false);
    },
  });
}

/**
 * The key must allow the table (403 before 404, so a scoped key learns nothing); the table
 * must exist when `mustExist` (an import creates it).
 */
async function tableAccess(request: FastifyRequest, store: RecordStore, databaseId: string, slug: string, mustExist: boolean): Promise<StoredTable | undefined> {
  const key = requireKey(request);
  if (!scopeAllows(key.scope, databaseId, slug)) {
    throw forbidden(`This API key is scoped to table ${key.scope?.databaseId}/${key.scope?.tableSlug}; it cannot reach ${databaseId}/${slug}.`);
  }
  const table = await store.table(databaseId, slug);
  if (!table && mustExist) throw notFound(`No table "${slug}" in database "${databaseId}".`);
  return table;
}

const QUERY_PATH = "/v0/record/:database_id/:table_slug/query";
const UPDATE_PATH = "/v0/record/:database_id/:table_slug/update";
const SCOPED_QUERY_PATH = "/v0/data-api/record/query";
const FIELDS_PATH = "/v0/record/:database_id/:table_slug/fields";
const INSERT_PATH = "/v0/record/:database_id/:table_slug/insert";
const DELETE_PATH = "/v0/record/:database_id/:table_slug/delete";
const DISTINCT_PATH = "/v0/record/:database_id/:table_slug/distinct";

function registerRoutes(app: FastifyInstance, store: RecordStore): void {
  const notPost: HTTPMethods[] = ["GET", "PUT", "PATCH", "DELETE", "OPTIONS"];
  for (const url of [QUERY_PATH, UPDATE_PATH, SCOPED_QUERY_PATH, IMPORT_PATH, INSERT_PATH, DELETE_PATH, DISTINCT_PATH]) wrongMethod(app, url, notPost, "POST");
  wrongMethod(app, FIELDS_PATH, ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"], "GET");

  /** The key must allow the table (403 before 404, so a scoped key learns nothing). */
  const tableFor = async (request: FastifyRequest, databaseId: string, slug: string) => (await tableAccess(request, store, databaseId, slug, true))!;

  const query = async (table: StoredTable, request: FastifyRequest): Promise<QueryResult> => {
    const body = parseBody(queryBodySchema, request, "query body");
    // A join reads the target table: a scoped key may join only the table it is scoped to.
    const { scope } = requireKey(request);
    for (const [i, j] of (body.join ?? []).entries()) {
      if (!scopeAllows(scope, table.databaseId, j.targetTable)) {
        throw forbidden(`join[${i}]: this API key is scoped to table ${scope?.databaseId}/${scope?.tableSlug}; it cannot join ${table.databaseId}/${j.targetTable}.`);
      }
    }
    return unwrap(await store.query(table, body));
  };

  app.post<{ Params: TableParams }>(QUERY_PATH, async (request) => {
    const table = await tableFor(request, request.params.database_id, request.params.table_slug);
    return query(table, request);
  });

  app.post(SCOPED_QUERY_PATH, async (request) => {
    const key = requireKey(request);
    if (!key.scope) {
      throw badRequest(
        "This API key is not scoped to a table, so /v0/data-api/record/query cannot tell which table to query: use /v0/record/{database_id}/{table_slug}/query, or a key scoped as key@database_id/table_slug.",
      );
    }
    return query(await tableFor(request, key.scope.databaseId, key.scope.tableSlug), request);
  });

  app.post<{ Params: TableParams }>(UPDATE_PATH, async (request, reply) => {
    const table = await tableFor(request, request.params.database_id, request.params.table_slug);
    if (request.body === undefined || request.body === null) {
      throw badRequest('The update body is missing: send {"values": [{"key", "value"}], "filter": {...}}.');
    }
    const body = parseBody(updateBodySchema, request, "update body");
    const beforeImages = beforeImagesAsked(request.headers[BEFORE_IMAGES_HEADER]);
    const { matched, before } = unwrap(await store.update(table, body, { beforeImages }));
    reply.header("x-matched-count", String(matched));
    if (!before) return { message: "ok" };
    // The rows are JSON the engine wrote: passed on as they are, not parsed and written again.
    return reply.type("application/json; charset=utf-8").send(`{"message":"ok","before":{"fields":${JSON.stringify(before.fields)},"rows":${before.rowsJson}}}`);
  });

  app.post<{ Params: TableParams }>(INSERT_PATH, async (request): Promise<WriteCount> => {
    const table = await tableFor(request, request.params.database_id, request.params.table_slug);
    if (request.body === undefined || request.body === null) throw badRequest('The insert body is missing: send {"records": [{…}, …]}.');
    const body = parseBody(insertBodySchema, request, "insert body");
    return unwrap(await insertRecords(store, table, body.records));
  });

  app.post<{ Params: TableParams }>(DELETE_PATH, async (request): Promise<WriteCount & { before?: BeforeImages }> => {
    const table = await tableFor(request, request.params.database_id, request.params.table_slug);
    if (request.body === undefined || request.body === null) throw badRequest('The delete body is missing: send {"filter": {...}, "expectedCount": n}.');
    const body = parseBody(deleteBodySchema, request, "delete body");
    const { count, before } = unwrap(await deleteRecords(store, table, body.filter, body.expectedCount, beforeImagesAsked(request.headers[BEFORE_IMAGES_HEADER])));
    return before ? { count, before } : { count };
  });

  app.post<{ Params: TableParams }>(DISTINCT_PATH, async (request): Promise<DistinctResponse> => {
    const table = await tableFor(request, request.params.database_id, request.params.table_slug);
    const body = parseBody(distinctBodySchema, request, "distinct body");
    return unwrap(await distinctValues(store, table, body));
  });

  app.get<{ Params: TableParams }>(FIELDS_PATH, async (request): Promise<FieldsResponse> => {
    const table = await tableFor(request, request.params.database_id, request.params.table_slug);
    return { items: store.fields(table) };
  });
}
