/** What every part of the local service is handed at start-up (no module reads config itself). */
import type { FastifyBaseLogger } from "fastify";
import type { KeyChecker } from "./auth";
import type { ServiceConfig } from "./config";
import type { SqlEngine } from "./engines/engine";

export interface ServiceContext {
  config: ServiceConfig;
  /** The database behind the engine seam (Records, table registry, storage metadata). */
  engine: SqlEngine;
  checkKey: KeyChecker;
  log: FastifyBaseLogger;
  /** Absolute base URL of this service (for signed URLs); known once it listens. */
  publicBaseUrl(): string;
}
