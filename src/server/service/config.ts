/**
 * Configuration of the local service, read once at start-up (decisions §1) and passed in.
 * Parsing is pure; the only I/O is in resolveApiKeys (the generated key file).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isPostgresUrl, type PostgresOptions, parsePostgresOptions } from "./engines/postgres/connection";
import { type BlobStoreConfig, parseStorageUrl } from "./blobs/storage-url";
import { writeFileOnceSync } from "../write-once";
import { parseServiceProfile, type ServiceProfile } from "./profile";

export interface ApiKeyScope {
  databaseId: string;
  tableSlug: string;
}

export interface ApiKeyEntry {
  key: string;
  scope?: ApiKeyScope;
}

export interface ServiceConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Keys from SERVICE_API_KEYS; empty means "generate one into DATA_DIR/api-key". */
  apiKeys: ApiKeyEntry[];
  /** Base of signed URLs; unset means the address the service listens on. */
  publicBaseUrl?: string;
  /** Honour X-Forwarded-For (only behind a trusted proxy). */
  trustProxy: boolean;
  /** Largest upload in bytes (default 5 GiB). */
  maxUploadBytes: number;
  /** Seed the sample data on first start. */
  seed: boolean;
  logLevel: "silent" | "error" | "warn" | "info" | "debug";
  /** SERVICE_PROFILE: "interface" answers as the hosted interface does (decisions §9). */
  profile: ServiceProfile;
  /** Bounds on what one client may take (README "Limits and timeouts"); see timeouts.ts. */
  limits: ServiceLimits;
  /** Where stored files live: DATA_DIR (default) or S3 (STORAGE_URL). */
  blobStore: BlobStoreConfig;
  /** Byte budget of the resized-variant cache (SERVICE_VARIANT_CACHE_BYTES, default 1 GiB). */
  variantCacheBytes: number;
  /** Resizes that may wait for a slot; past it a 503 (SERVICE_RESIZE_QUEUE, default 32). */
  resizeQueue: number;
  /** The signing key pairs (STORAGE_SIGNING_KEYS_FILE, default DATA_DIR/storage-signing-keys.json). */
  signingKeysFile: string;
  /** Start-up sweeps only leftovers older than this (STORAGE_SWEEP_GRACE_SECONDS; 0 on disk, 900 on S3; instances sharing a DATA_DIR set it). */
  sweepGraceSeconds: number;
  /** The embedded engine (DuckDB): memory_limit and worker threads (small-machine defaults). */
  duckdb: { memoryLimit: string; threads: number };
  /** DATABASE_URL=postgres://…: Records, registry and storage metadata on PostgreSQL (unset: embedded). */
  postgres?: PostgresOptions;
}

export interface ServiceLimits {
  /** The request line and headers must arrive within this (408 after). */
  headersTimeoutMs: number;
  /** A body that sends nothing for this long is cut (408). */
  bodyIdleMs: number;
  /** A JSON body must arrive whole within this (408 after); uploads and imports have no such deadline. */
  jsonBodyMs: number;
}

function positiveMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of milliseconds, not "${raw}".`);
  return n;
}

export function parseServiceLimits(env: NodeJS.ProcessEnv): ServiceLimits {
  return {
    headersTimeoutMs: positiveMs(env, "SERVICE_HEADERS_TIMEOUT_MS", 20_000),
    bodyIdleMs: positiveMs(env, "SERVICE_BODY_IDLE_TIMEOUT_MS", 30_000),
    jsonBodyMs: positiveMs(env, "SERVICE_JSON_BODY_TIMEOUT_MS", 60_000),
  };
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min} (got ${JSON.stringify(raw)}).`);
  return n;
}

export function parseApiKeys(raw: string | undefined): ApiKeyEntry[] {
  if (!raw) return [];
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const at = entry.lastIndexOf("@");
      if (at <= 0) return { key: entry };
      const [databaseId, tableSlug] = entry.slice(at + 1).split("/");
      if (!databaseId || !tableSlug) throw new Error(`SERVICE_API_KEYS: scope must be key@database_id/table_slug`);
      return { key: entry.slice(0, at), scope: { databaseId, tableSlug } };
    });
}

function argValue(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i >= 0) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
}

export function parseServiceConfig(argv: string[], env: NodeJS.ProcessEnv): ServiceConfig {
  const port = Number(argValue(argv, "--port") ?? env.SERVICE_PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port: ${port}`);
  const dataDir = path.resolve(argValue(argv, "--data-dir") ?? env.DATA_DIR ?? ".data");
  const blobStore = parseStorageUrl(env);
  return {
    port,
    host: env.SERVICE_HOST ?? "127.0.0.1",
    dataDir,
    apiKeys: parseApiKeys(env.SERVICE_API_KEYS),
    publicBaseUrl: env.SERVICE_PUBLIC_URL || undefined,
    trustProxy: env.SERVICE_TRUST_PROXY === "1" || env.SERVICE_TRUST_PROXY === "true",
    maxUploadBytes: Number(env.SERVICE_MAX_UPLOAD_BYTES ?? 5 * 1024 ** 3),
    seed: env.SERVICE_SEED !== "0",
    logLevel: (env.SERVICE_LOG_LEVEL as ServiceConfig["logLevel"]) ?? "warn",
    limits: parseServiceLimits(env),
    blobStore,
    variantCacheBytes: positiveInt(env, "SERVICE_VARIANT_CACHE_BYTES", 1024 ** 3),
    resizeQueue: positiveInt(env, "SERVICE_RESIZE_QUEUE", 32),
    signingKeysFile: path.resolve(env.STORAGE_SIGNING_KEYS_FILE || path.join(dataDir, "storage-signing-keys.json")),
    sweepGraceSeconds: positiveInt(env, "STORAGE_SWEEP_GRACE_SECONDS", blobStore.kind === "s3" ? 900 : 0),
    duckdb: parseDuckDbConfig(env),
    postgres: parseDatabaseUrl(env),
    profile: parseServiceProfile(env.SERVICE_PROFILE),
  };
}

const MIN_DUCKDB_MEMORY = 8 * 1000 ** 2;

/** A size such as "512MB", "2GB" or "1.5GiB" in bytes, as DuckDB reads it (KB/MB/GB: powers of 1000; KiB/MiB/GiB: of 1024), or undefined. */
export function sizeBytes(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(KB|MB|GB|KiB|MiB|GiB)$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = m[2].toUpperCase();
  const power = unit[0] === "K" ? 1 : unit[0] === "M" ? 2 : 3;
  return Number(m[1]) * (unit.includes("I") ? 1024 : 1000) ** power;
}

function parseDuckDbConfig(env: NodeJS.ProcessEnv): ServiceConfig["duckdb"] {
  const memoryLimit = env.DUCKDB_MEMORY_LIMIT ?? "512MB";
  const bytes = sizeBytes(memoryLimit);
  if (bytes === undefined) throw new Error(`DUCKDB_MEMORY_LIMIT: a size such as 512MB or 2GB, not ${memoryLimit}`);
  if (bytes < MIN_DUCKDB_MEMORY) throw new Error(`DUCKDB_MEMORY_LIMIT: at least 8MB (the engine needs room for its own buffers; 512MB is the default), not ${memoryLimit}`);
  const threads = Number(env.DUCKDB_THREADS ?? 2);
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) throw new Error(`DUCKDB_THREADS: a whole number from 1 to 64, not ${env.DUCKDB_THREADS}`);
  return { memoryLimit, threads };
}

function parseDatabaseUrl(env: NodeJS.ProcessEnv): PostgresOptions | undefined {
  if (!env.DATABASE_URL) return undefined;
  if (!isPostgresUrl(env.DATABASE_URL)) throw new Error("DATABASE_URL: only postgres:// (or postgresql://) URLs are supported; unset it for the embedded engine.");
  return parsePostgresOptions(env.DATABASE_URL, env);
}

export const API_KEY_FILE = "api-key";

/** With no keys configured, generate one on first start into DATA_DIR/api-key (mode 0600). */
export function resolveApiKeys(config: ServiceConfig): ApiKeyEntry[] {
  if (config.apiKeys.length > 0) return config.apiKeys;
  const file = path.join(config.dataDir, API_KEY_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    const key = fs.readFileSync(file, "utf8").trim();
    if (key) return [{ key }];
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  const key = `bb_${randomBytes(24).toString("base64url")}`;
  // Another instance starting at the same moment may have written its key first: use that one.
  if (writeFileOnceSync(file, `${key}\n`, 0o600)) return [{ key }];
  return [{ key: fs.readFileSync(file, "utf8").trim() }];
}
