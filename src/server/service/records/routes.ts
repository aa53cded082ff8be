/**
 * HTTP routes of the Record capability (interface §4.1, §4.2; decisions §3–§6). Handlers are
 * thin: check the key, find the table, validate the body at the edge, call the store.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodType } from "zod";
import {
  describeSchemaError,
  type FieldsResponse,
  type QueryResult,
  queryBodySchema,
  updateBodySchema,
} from "../../../shared/records";
import { badRequest, forbidden, HttpError, notFound } from "../../http-error";
import { requireKey } from "../app";
import { scopeAllows } from "../auth";
import type { StoredTable } from "./registry";
import type { RecordStore } from "./store";

type TableParams = { database_id: string; table_slug: string };

function parseBody<T>(schema: ZodType<T>, request: FastifyRequest, name: string): T {
  const type = request.headers["content-type"];
  if (type !== undefined && !/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    throw badRequest(`Send the ${name} as JSON with Content-Type: application/json (got ${type.split(";")[0]}).`);
  }
  // A POST without any body is an empty query (every property is optional).
  const parsed = schema.safeParse(request.body ?? {});
  if (!parsed.success) throw badRequest(describeSchemaError(parsed.error, name));
  return parsed.data;
}

function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: Parameters<typeof HttpError.from>[0] }): T {
  if (!result.ok) throw HttpError.from(result.error);
  return result.value;
}

export function registerRecordRoutes(app: FastifyInstance, store: RecordStore): void {
  /** The key must allow the table (403 before 404, so a scoped key learns nothing). */
  function tableFor(request: FastifyRequest, databaseId: string, slug: string): StoredTable {
    const key = requireKey(request);
    if (!scopeAllows(key.scope, databaseId, slug)) {
      throw forbidden(`This API key is scoped to table ${key.scope?.databaseId}/${key.scope?.tableSlug}; it cannot reach ${databaseId}/${slug}.`);
    }
    const table = store.table(databaseId, slug);
    if (!table) throw notFound(`No table "${slug}" in database "${databaseId}".`);
    return table;
  }

  const query = (table: StoredTable, request: FastifyRequest): QueryResult =>
    unwrap(store.query(table, parseBody(queryBodySchema, request, "query body")));

  app.post<{ Params: TableParams }>("/v0/record/:database_id/:table_slug/query", async (request) => {
    const table = tableFor(request, request.params.database_id, request.params.table_slug);
    return query(table, request);
  });

  app.post("/v0/data-api/record/query", async (request) => {
    const key = requireKey(request);
    if (!key.scope) {
      throw badRequest(
        "This API key is not scoped to a table, so /v0/data-api/record/query cannot tell which table to query: use /v0/record/{database_id}/{table_slug}/query, or a key scoped as key@database_id/table_slug.",
      );
    }
    return query(tableFor(request, key.scope.databaseId, key.scope.tableSlug), request);
  });

  app.post<{ Params: TableParams }>("/v0/record/:database_id/:table_slug/update", async (request, reply) => {
    const table = tableFor(request, request.params.database_id, request.params.table_slug);
    if (request.body === undefined || request.body === null) {
      throw badRequest('The update body is missing: send {"values": [{"key", "value"}], "filter": {...}}.');
    }
    const body = parseBody(updateBodySchema, request, "update body");
    const { matched } = unwrap(store.update(table, body));
    reply.header("x-matched-count", String(matched));
    return { message: "ok" };
  });

  app.get<{ Params: TableParams }>("/v0/record/:database_id/:table_slug/fields", async (request): Promise<FieldsResponse> => {
    const table = tableFor(request, request.params.database_id, request.params.table_slug);
    return { items: store.fields(table) };
  });
}
