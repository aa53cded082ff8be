/** The Storage capability of the local service: buckets, objects, signing. (Filled in by issue 3.) */
import type { FastifyInstance } from "fastify";
import type { MetaBucket } from "../../../shared/meta";
import type { ServiceContext } from "../context";

export interface StorageModule {
  register(app: FastifyInstance): void;
  buckets(): MetaBucket[];
  close(): Promise<void>;
}

export async function createStorageModule(_ctx: ServiceContext): Promise<StorageModule> {
  return {
    register() {},
    buckets: () => [],
    close: async () => {},
  };
}
