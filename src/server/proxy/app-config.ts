/**
 * GET /api/config: what the app shows and what the upstream can do. The local service describes
 * itself (GET /v0/meta); an upstream with only the hosted interface cannot, so its tables and
 * buckets come from a config file (baseboard.config.json) and its capabilities are the
 * interface's alone: `equal`, no listing, no delete, no fields, no meta, no expiresIn.
 */
import fs from "node:fs";
import { z } from "zod";
import { type ErrorBody, errorBodySchema } from "../../shared/errors";
import { allOperators } from "../../shared/filter";
import { fieldTypes } from "../../shared/records";
import type { AppConfig, Capabilities, MetaResponse } from "../../shared/meta";
import { keyRefused, UpstreamFailure, type Upstream } from "./forward";

export const PLAIN_CAPABILITIES: Capabilities = {
  operators: ["equal"],
  fields: false,
  meta: false,
  list: false,
  delete: false,
  expiresIn: false,
  import: false,
};

const name = z.string().min(1);
/** A declared Field: image and attachment Fields name the bucket their object keys live in. */
const fieldSchema = z
  .object({
    key: name,
    type: z.enum(fieldTypes),
    bucket: name.optional(),
    nullable: z.boolean().optional(),
  })
  .strict()
  .refine((f) => (f.type === "image" || f.type === "attachment") === (f.bucket !== undefined), {
    message: "an image or attachment Field needs its bucket, and only those take one",
    path: ["bucket"],
  });
const tableSchema = z
  .object({ slug: name, primaryKey: name, fields: z.array(fieldSchema).optional() })
  .strict()
  .refine((t) => new Set(t.fields?.map((f) => f.key)).size === (t.fields?.length ?? 0), {
    message: "a Field is declared twice",
    path: ["fields"],
  });
const databaseSchema = z.object({ id: name, tables: z.array(tableSchema) }).strict();
const bucketSchema = z
  .object({
    name,
    permission: z.enum(["forbidden", "public", "limitedPublic"]),
    access: z.array(z.enum(["read", "create", "update"])).default(["read"]),
  })
  .strict();
const capabilitiesSchema = z
  .object({
    operators: z.array(z.enum(allOperators)).min(1),
    fields: z.boolean(),
    meta: z.boolean(),
    list: z.boolean(),
    delete: z.boolean(),
    expiresIn: z.boolean(),
    import: z.boolean(),
    insert: z.boolean().optional(),
    deleteRecords: z.boolean().optional(),
    distinct: z.boolean().optional(),
    anyOf: z.boolean().optional(),
    events: z.boolean().optional(),
    resumable: z.boolean().optional(),
    beforeImages: z.boolean().optional(),
    deletedImages: z.boolean().optional(),
  })
  .strict();

/** The config file for an upstream without meta. Every key is optional. */
export const configFileSchema = z
  .object({
    label: name.optional(),
    databases: z.array(databaseSchema).default([]),
    buckets: z.array(bucketSchema).default([]),
    /** Overrides of the plain capabilities, for a hosted service known to offer more. */
    capabilities: capabilitiesSchema.partial().optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof configFileSchema>;

const metaSchema = z.object({
  databases: z.array(databaseSchema.loose()),
  buckets: z.array(bucketSchema.loose()),
  capabilities: capabilitiesSchema.partial().loose().optional(),
});

/** Reads and checks the config file; undefined when there is none. Throws a readable message. */
export function loadConfigFile(file: string): ConfigFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`Cannot read ${file}: ${(e as Error).message}`, { cause: e });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file} is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(top)"}: ${i.message}`).join("; ");
    throw new Error(`${file} is not a valid Baseboard config: ${issues}`);
  }
  return parsed.data;
}

/**
 * The status of one cheap call of the interface that needs the key, on what the config file lists:
 * a signed URL of a file that is not there (404 with a good key), else a query of no Records.
 * Undefined when the file lists nothing to ask about.
 */
async function keyCheck(upstream: Upstream, file: ConfigFile | undefined): Promise<number | undefined> {
  const bucket = file?.buckets.find((b) => b.permission !== "forbidden");
  if (bucket) return (await upstream.getJson(`/v0/storage/url/sign/${encodeURIComponent(bucket.name)}/.baseboard-key-check`)).status;
  const db = file?.databases.find((d) => d.tables.length > 0);
  if (db) return (await upstream.postJson(`/v0/record/${encodeURIComponent(db.id)}/${encodeURIComponent(db.tables[0].slug)}/query`, { limit: 0 })).status;
  return undefined;
}

export type ConfigResult = { status: 200; body: AppConfig } | { status: number; body: ErrorBody };

export async function buildAppConfig(
  upstream: Upstream,
  source: { kind: "local" | "hosted"; label: string; file?: ConfigFile; fileName: string },
): Promise<ConfigResult> {
  let meta: { status: number; body: unknown };
  try {
    meta = await upstream.getJson("/v0/meta");
  } catch (e) {
    if (e instanceof UpstreamFailure) return { status: e.status, body: e.toBody() };
    throw e;
  }
  const label = source.file?.label ?? source.label;
  if (meta.status === 200) {
    const parsed = metaSchema.safeParse(meta.body);
    if (parsed.success) {
      const m = parsed.data as MetaResponse;
      return {
        status: 200,
        body: {
          databases: m.databases,
          buckets: m.buckets,
          capabilities: { ...PLAIN_CAPABILITIES, ...m.capabilities, meta: true },
          upstream: { kind: source.kind, label },
        },
      };
    }
  }
  if (meta.status === 404 || meta.status === 405 || (meta.status === 200 && meta.body === undefined)) {
    const file = source.file;
    // No catalog to ask, and an upstream may answer that 404 before looking at the key: the key is
    // checked by one call that needs it (review 52a #2: a wrong API_KEY answered 200 here, so the
    // app and its status badge looked well while every call failed).
    const checked = await keyCheck(upstream, file).catch((e) => (e instanceof UpstreamFailure ? e : Promise.reject(e)));
    if (checked instanceof UpstreamFailure) return { status: checked.status, body: checked.toBody() };
    if (checked === 401) return { status: 502, body: keyRefused(source.label).toBody() };
    const body: AppConfig = {
      databases: file?.databases ?? [],
      buckets: file?.buckets ?? [],
      capabilities: { ...PLAIN_CAPABILITIES, ...file?.capabilities, meta: false },
      upstream: { kind: source.kind, label },
    };
    if (!file) {
      body.notice = `The upstream does not describe its tables and buckets. List them in ${source.fileName} (see the README, "Proxy") and restart.`;
    } else if (body.databases.length === 0 && body.buckets.length === 0) {
      body.notice = `${source.fileName} lists no databases or buckets.`;
    }
    return { status: 200, body };
  }
  if (meta.status === 401) return { status: 502, body: keyRefused(source.label).toBody() };
  const err = errorBodySchema.safeParse(meta.body);
  if (err.success && meta.status >= 400 && meta.status < 600) return { status: meta.status, body: err.data };
  const f = new UpstreamFailure(502, `${source.label} answered GET /v0/meta with HTTP ${meta.status} and a body Baseboard cannot read.`);
  return { status: 502, body: f.toBody() };
}

/**
 * The upstream's catalog as last read, shared by whoever needs it between requests: the activity
 * log (a table's primary key) and the proxy (what hosted mode lists). Read again when older
 * than `maxAgeMs`, or for a name the catalog lacks (a table just imported) at most once a second
 * per name, so that requests for a table that does not exist do not each cost a read. Reads
 * asked for at once share one request. GET /api/config reads afresh and hands its answer here.
 */
export interface CatalogCache {
  /** The catalog (undefined when never read), and the answer of the read this call made, if any. */
  get(lookingFor?: string): Promise<{ config?: AppConfig; read?: ConfigResult }>;
  /** An answer read elsewhere (GET /api/config). */
  put(result: ConfigResult): void;
  /** Tables changed (an import made one): the next `get` reads again. */
  invalidate(): void;
}

export function createCatalogCache(upstream: Upstream, source: Parameters<typeof buildAppConfig>[1], maxAgeMs = 30_000): CatalogCache {
  let config: AppConfig | undefined;
  let at = 0;
  let reading: Promise<ConfigResult> | undefined;
  /** Names not found, with when they were last looked for. */
  const missed = new Map<string, number>();
  const has = (cfg: AppConfig, name: string) => cfg.buckets.some((b) => b.name === name) || cfg.databases.some((d) => d.tables.some((t) => `${d.id}/${t.slug}` === name));
  const put = (result: ConfigResult) => {
    if (result.status === 200) config = result.body as AppConfig;
    at = Date.now();
  };
  return {
    async get(lookingFor) {
      const now = Date.now();
      let recheck = false;
      if (lookingFor !== undefined && config && !has(config, lookingFor) && now - (missed.get(lookingFor) ?? 0) > 1_000) {
        if (missed.size > 1_000) missed.clear();
        missed.set(lookingFor, now);
        recheck = true;
      }
      if (config && now - at <= maxAgeMs && !recheck) return { config };
      reading ??= buildAppConfig(upstream, source).finally(() => (reading = undefined));
      const read = await reading;
      put(read);
      return { config, read };
    },
    put,
    invalidate() {
      missed.clear();
      at = 0;
    },
  };
}
