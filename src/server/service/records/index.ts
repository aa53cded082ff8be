/** The Record capability of the local service: store, routes and meta. (Filled in by issue 2.) */
import type { FastifyInstance } from "fastify";
import type { MetaDatabase } from "../../../shared/meta";
import type { ServiceContext } from "../context";

export interface RecordsModule {
  register(app: FastifyInstance): void;
  databases(): MetaDatabase[];
  close(): Promise<void>;
}

export async function createRecordsModule(_ctx: ServiceContext): Promise<RecordsModule> {
  return {
    register() {},
    databases: () => [],
    close: async () => {},
  };
}
