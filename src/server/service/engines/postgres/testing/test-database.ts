/**
 * One fresh database per test service on the run's scratch cluster, dropped when the service
 * closes. CREATE DATABASE copies template1 (a few milliseconds with fsync off), which is
 * cheaper and more isolated than cleaning tables between tests.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

function withDatabase(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** `icuLocale`: a database whose default collation is that ICU locale's (as managed services' often are linguistic). */
export async function createTestDatabase(adminUrl: string, prefix = "bb_test", opts: { icuLocale?: string } = {}): Promise<TestDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
  const icu = opts.icuLocale ? ` LOCALE_PROVIDER icu ICU_LOCALE '${opts.icuLocale.replace(/'/g, "")}' LOCALE 'C.UTF-8' TEMPLATE template0` : "";
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"${icu}`));
  return {
    url: withDatabase(adminUrl, name),
    name,
    // FORCE: a service that was SIGKILLed may leave sessions behind for a moment.
    drop: () => admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
