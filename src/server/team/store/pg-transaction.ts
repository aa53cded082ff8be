/** One transaction on a client of a pg pool, shared by the team layer's PostgreSQL stores. */
import type pg from "pg";

/**
 * Runs `fn` between BEGIN and COMMIT (ROLLBACK when it throws). A connection that breaks while
 * the client is checked out, between its queries (an administrator ending backends, a failover),
 * emits 'error' on the client, which the pool's own handler covers only for idle clients: it is
 * caught here, the next query fails instead, and the broken client is destroyed, not pooled.
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (e: Error) => {
    broken = e;
  };
  client.on("error", onError);
  try {
    await client.query("BEGIN");
    const out = await fn(client);
    await client.query("COMMIT");
    return out;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.off("error", onError);
    client.release(broken);
  }
}
