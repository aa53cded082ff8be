/**
 * How the service connects to PostgreSQL: pool options from DATABASE_URL and the environment,
 * read once at start-up. Pure; the pool itself is made in engine.ts.
 *
 * TLS for managed databases goes in the URL, as libpq spells it: `?sslmode=verify-full` (or
 * `require`) and `&sslrootcert=/path/ca.pem` (also `sslcert`/`sslkey` for client certificates).
 * PGSSLMODE and PGSSLROOTCERT are honoured when the URL does not say.
 */
import type { PoolConfig } from "pg";

export interface PostgresOptions {
  url: string;
  /** Connections per service process (DATABASE_POOL_MAX). */
  poolMax: number;
  /** Milliseconds to wait for a connection before answering 503 (DATABASE_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs: number;
}

export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//i.test(url);
}

export function parsePostgresOptions(url: string, env: NodeJS.ProcessEnv): PostgresOptions {
  const poolMax = Number(env.DATABASE_POOL_MAX ?? 10);
  if (!Number.isInteger(poolMax) || poolMax < 1 || poolMax > 1000) throw new Error(`DATABASE_POOL_MAX must be an integer from 1 to 1000 (got ${env.DATABASE_POOL_MAX}).`);
  const connectTimeoutMs = Number(env.DATABASE_CONNECT_TIMEOUT_MS ?? 5000);
  if (!Number.isInteger(connectTimeoutMs) || connectTimeoutMs < 1) throw new Error(`DATABASE_CONNECT_TIMEOUT_MS must be a positive integer.`);
  const u = new URL(url);
  if (!u.searchParams.has("sslmode") && env.PGSSLMODE) u.searchParams.set("sslmode", env.PGSSLMODE);
  if (!u.searchParams.has("sslrootcert") && env.PGSSLROOTCERT) u.searchParams.set("sslrootcert", env.PGSSLROOTCERT);
  return { url: u.toString(), poolMax, connectTimeoutMs };
}

/** The URL with any password replaced, for log lines. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://…";
  }
}

export function poolConfig(options: PostgresOptions): PoolConfig {
  return {
    connectionString: options.url,
    max: options.poolMax,
    connectionTimeoutMillis: options.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    application_name: "baseboard",
  };
}
