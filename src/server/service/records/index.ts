/** The Record capability of the local service: table registry and store, sample data, routes, meta. */
import type { FastifyInstance } from "fastify";
import type { MetaDatabase } from "../../../shared/meta";
import type { ServiceContext } from "../context";
import { registerRecordRoutes } from "./routes";
import { seedSampleData } from "./seed";
import { SqliteRecordStore } from "./store";

export interface RecordsModule {
  register(app: FastifyInstance): void;
  databases(): MetaDatabase[];
  close(): Promise<void>;
}

export async function createRecordsModule(ctx: ServiceContext): Promise<RecordsModule> {
  const store = new SqliteRecordStore(ctx.sqlite, ctx.kysely);
  if (ctx.config.seed && seedSampleData(store, ctx.sqlite, ctx.kysely)) ctx.log.info("seeded the sample tables");
  return {
    register(app) {
      registerRecordRoutes(app, store);
    },
    databases() {
      const byDb = new Map<string, MetaDatabase>();
      for (const t of store.tables()) {
        let db = byDb.get(t.databaseId);
        if (!db) byDb.set(t.databaseId, (db = { id: t.databaseId, tables: [] }));
        db.tables.push({ slug: t.slug, primaryKey: t.primaryKey });
      }
      return [...byDb.values()];
    },
    close: async () => {},
  };
}
