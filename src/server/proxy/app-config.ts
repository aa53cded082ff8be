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
import { UpstreamFailure, type Upstream } from "./forward";

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
  const err = errorBodySchema.safeParse(meta.body);
  if (err.success && meta.status >= 400 && meta.status < 600) {
    const hint = meta.status === 401 ? " Check API_KEY." : "";
    return { status: meta.status, body: { ...err.data, message: `${err.data.message}${hint}` } };
  }
  const f = new UpstreamFailure(502, `${source.label} answered GET /v0/meta with HTTP ${meta.status} and a body Baseboard cannot read.`);
  return { status: 502, body: f.toBody() };
}
