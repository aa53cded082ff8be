/** The Record capability of the local service: table registry and store, sample data, routes, meta. */
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { MetaDatabase } from "../../../shared/meta";
import type { ServiceContext } from "../context";
import { registerRecordRoutes } from "./routes";
import { seedSampleData } from "./seed";
import { type RecordStore, SqlRecordStore } from "./store";

export interface RecordsModule {
  store: RecordStore;
  register(app: FastifyInstance): void;
  databases(): Promise<MetaDatabase[]>;
  close(): Promise<void>;
}

export async function createRecordsModule(ctx: ServiceContext): Promise<RecordsModule> {
  const store = await SqlRecordStore.open(ctx.engine);
  const spoolDir = path.join(ctx.config.dataDir, "import-tmp");
  // Bodies of imports a crash interrupted: nothing was imported from them.
  fs.rmSync(spoolDir, { recursive: true, force: true });
  if (ctx.config.seed && (await seedSampleData(store))) ctx.log.info("seeded the sample tables");
  return {
    store,
    register(app) {
      registerRecordRoutes(app, store, { maxImportBytes: ctx.config.maxUploadBytes, spoolDir });
    },
    async databases() {
      const byDb = new Map<string, MetaDatabase>();
      for (const t of await store.tables()) {
        let db = byDb.get(t.databaseId);
        if (!db) byDb.set(t.databaseId, (db = { id: t.databaseId, tables: [] }));
        db.tables.push({ slug: t.slug, primaryKey: t.primaryKey });
      }
      return [...byDb.values()];
    },
    close: async () => {},
  };
}
