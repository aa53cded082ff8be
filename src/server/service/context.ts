/** What every part of the local service is handed at start-up (no module reads config itself). */
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { KeyChecker } from "./auth";
import type { ServiceConfig } from "./config";
import type { Sqlite } from "./db";

export interface ServiceContext {
  config: ServiceConfig;
  sqlite: Sqlite;
  kysely: Kysely<any>;
  checkKey: KeyChecker;
  log: FastifyBaseLogger;
  /** Absolute base URL of this service (for signed URLs); known once it listens. */
  publicBaseUrl(): string;
}
