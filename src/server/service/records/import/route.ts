/**
 * POST /v0/record/{database_id}/{table_slug}/import (extension, contract C): a `text/csv`
 * body, streamed to a temporary file (so that types can be inferred in a first pass, and the
 * upload limit applies without holding the body in memory), then imported by the same code
 * as `npm run import`. 200 {message, inserted, updated, created}; 400 "line L: …"; 413. With the
 * beforeImages header, also `before` (what it overwrote of the Records it updated: csv-import.ts).
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { fieldTypes, type FieldType } from "../../../../shared/records";
import { BEFORE_IMAGES_HEADER } from "../../../../shared/record-writes";
import { badRequest, HttpError } from "../../../http-error";
import { beforeImagesAsked } from "../before-images";
import type { RecordStore } from "../store";
import { importAnswer } from "./answer";
import { importCsv } from "./csv-import";
import { spoolBody } from "./spool";

export const IMPORT_PATH = "/v0/record/:database_id/:table_slug/import";
const CSV_TYPE = /^text\/csv\b/i;

export interface ImportRouteOptions {
  maxBytes: number;
  /** Where bodies are spooled while they are imported (removed afterwards). */
  spoolDir: string;
  /** Resolves the table the key may reach (401/403 first, like every Record route). */
  authorize(request: FastifyRequest, databaseId: string, slug: string): Promise<void>;
}

function queryOptions(query: Record<string, unknown>): { primaryKey?: string; types: Record<string, FieldType> } {
  const pk = query.primaryKey;
  if (pk !== undefined && (typeof pk !== "string" || pk === "")) throw badRequest("primaryKey must be one Field name.");
  const types: Record<string, FieldType> = {};
  const raw = query.type === undefined ? [] : Array.isArray(query.type) ? query.type : [query.type];
  for (const t of raw) {
    const [field, type] = String(t).split(":");
    if (!field || !(fieldTypes as readonly string[]).includes(type)) throw badRequest(`type must be FIELD:TYPE with TYPE one of ${fieldTypes.join(", ")} (got ${JSON.stringify(String(t).slice(0, 80))}).`);
    types[field] = type as FieldType;
  }
  return { primaryKey: pk as string | undefined, types };
}

export function registerImportRoute(root: FastifyInstance, store: RecordStore, options: ImportRouteOptions): void {
  void root.register(async (app) => {
    app.removeAllContentTypeParsers();
    // The body is left unread here and streamed below (the 1 MiB JSON limit does not apply).
    app.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
    app.post<{ Params: { database_id: string; table_slug: string }; Querystring: Record<string, unknown> }>(IMPORT_PATH, async (request, reply) => {
      const { database_id: databaseId, table_slug: slug } = request.params;
      await options.authorize(request, databaseId, slug);
      const type = request.headers["content-type"] ?? "";
      if (!CSV_TYPE.test(type)) {
        request.raw.resume();
        throw badRequest(`Send the CSV with Content-Type: text/csv (got ${type.split(";")[0] || "none"}).`);
      }
      const { primaryKey, types } = queryOptions(request.query);
      const declared = Number(request.headers["content-length"]);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        request.raw.resume();
        throw new HttpError("payload_too_large", `The CSV is ${declared} bytes, over this service's limit of ${options.maxBytes} bytes; nothing was imported.`);
      }
      const spool = path.join(options.spoolDir, `${randomUUID()}.csv`);
      try {
        await spoolBody(request.raw, spool, options.maxBytes);
        const beforeImages = beforeImagesAsked(request.headers[BEFORE_IMAGES_HEADER]);
        const result = await importCsv(store, spool, { databaseId, slug, primaryKey, types, beforeImages });
        if (!result.ok) throw HttpError.from(result.error);
        return reply.type("application/json; charset=utf-8").send(importAnswer(result.value));
      } finally {
        await fs.promises.rm(spool, { force: true });
      }
    });
  });
}
