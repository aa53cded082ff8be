/**
 * Builds the local service: one Fastify app, one database behind the engine seam, the Record and Storage
 * capabilities registered into it, and the meta extension that describes both.
 */
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { allOperators } from "../../shared/filter";
import { errorBody } from "../../shared/errors";
import { JSON_BODY_LIMIT } from "../../shared/limits";
import type { MetaResponse } from "../../shared/meta";
import { badRequest, installErrorHandler } from "../http-error";
import { notPlainBody } from "../json-request";
import { engineHttpError } from "./engines/http-failure";
import { createKeyChecker, type KeyCheck, requireKey } from "./auth";
import { resolveApiKeys, type ServiceConfig } from "./config";
import type { ServiceContext } from "./context";
import { installBodyTimeouts, serverOptions } from "./timeouts";
import { openEngine } from "./engines/open";
import { migrateFromSqlite } from "./migration/from-sqlite";
import { registerServiceProfile } from "./profile";
import { createRecordsModule } from "./records/index";
import { createStorageModule } from "./storage/index";
import { registerChangeFeed } from "./events/change-feed";

declare module "fastify" {
  interface FastifyRequest {
    /** Result of the x-api-key check, made for every request before its body is read. */
    apiKey: KeyCheck;
  }
}

export interface Service {
  app: FastifyInstance;
  context: ServiceContext;
  /** Listens on config.host:config.port (0 = ephemeral) and returns the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export const BODY_LIMIT = JSON_BODY_LIMIT;

/** Kept here for callers that imported it from app.ts; it lives in auth.ts (no import cycle). */
export { requireKey };

export async function createService(config: ServiceConfig): Promise<Service> {
  const apiKeys = resolveApiKeys(config);
  const app = Fastify({
    ...serverOptions(config.limits),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    logger: config.logLevel === "silent" ? false : { level: config.logLevel },
    // Request logs (info level) never include headers, so never the key.
    forceCloseConnections: false,
    // Malformed %-escapes and over-long path segments fail before routing: same error shape.
    frameworkErrors: (err, _request, reply) => {
      const message =
        err.code === "FST_ERR_BAD_URL"
          ? "The path has a malformed %-escape: encode each path segment with encodeURIComponent."
          : "A path segment is too long (at most 100 characters).";
      void (reply as FastifyReply).code(400).send(errorBody("validation_error", message));
    },
  });
  const engine = await openEngine(config, app.log);
  try {
    const migrated = await migrateFromSqlite(config.dataDir, engine);
    if (migrated) {
      app.log.warn(
        `migrated ${migrated.tables} tables, ${migrated.records} Records and ${migrated.objects} stored object versions from the SQLite file of an older version; it is kept as ${migrated.keptAs} in the data directory`,
      );
    }
  } catch (e) {
    await engine.close();
    throw e;
  }
  let baseUrl = config.publicBaseUrl;
  const context: ServiceContext = {
    config,
    engine,
    checkKey: createKeyChecker(apiKeys),
    log: app.log,
    publicBaseUrl: () => {
      if (!baseUrl) throw new Error("publicBaseUrl is known only once the service listens");
      return baseUrl;
    },
  };

  installErrorHandler(app, engineHttpError);
  installBodyTimeouts(app, config.limits);
  registerServiceProfile(app, config.profile);
  app.decorateRequest("apiKey", undefined as never);
  app.addHook("onRequest", async (request) => {
    request.apiKey = context.checkKey(request.headers["x-api-key"]);
    // No route here decompresses a body: a compressed one would be read as its bytes.
    const encoded = request.method !== "GET" && request.method !== "HEAD" ? notPlainBody(request.headers["content-encoding"]) : undefined;
    if (encoded) throw badRequest(encoded);
  });

  // Before the capabilities: its hook sees every write they answer.
  const feed = registerChangeFeed(app);
  const records = await createRecordsModule(context);
  const storage = await createStorageModule(context);
  records.register(app);
  storage.register(app);

  app.get("/v0/meta", async (request): Promise<MetaResponse> => {
    const key = requireKey(request);
    const databases = (await records.databases())
      .map((db) =>
        key.scope
          ? { ...db, tables: db.id === key.scope.databaseId ? db.tables.filter((t) => t.slug === key.scope?.tableSlug) : [] }
          : db,
      )
      .filter((db) => db.tables.length > 0);
    return {
      databases,
      buckets: storage.buckets(),
      capabilities: { operators: [...allOperators], fields: true, meta: true, list: true, delete: true, expiresIn: true, signMany: true, import: true, jobs: true, search: true, versions: true, resumable: true, insert: true, deleteRecords: true, distinct: true, anyOf: true, events: true, beforeImages: true, deletedImages: true },
    };
  });

  return {
    app,
    context,
    async listen() {
      const address = await app.listen({ port: config.port, host: config.host });
      const u = new URL(address);
      if (u.hostname === "[::1]" || u.hostname === "0.0.0.0" || u.hostname === "[::]") u.hostname = "127.0.0.1";
      const url = u.origin;
      baseUrl ??= url;
      return url;
    },
    async close() {
      feed.close();
      await app.close();
      await storage.close();
      await records.close();
      await engine.close();
    },
  };
}
