/**
 * Buckets come from the service configuration, never from the API (interface §2.6): the file
 * DATA_DIR/buckets.json, written with the sample buckets of decisions §2 on first start.
 * `authorize` is the one place that decides who may do what in a bucket.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Failure } from "../../../../shared/errors";
import type { BucketAccess, MetaBucket } from "../../../../shared/meta";
import { writeFileOnceSync } from "../../../write-once";
import { type AllowList, compileAllowList } from "./address";

export const BUCKETS_FILE = "buckets.json";

const bucketSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, "bucket names are 1-63 characters of a-z, 0-9, '.', '_' and '-', starting with a letter or digit"),
    permission: z.enum(["forbidden", "public", "limitedPublic"]),
    access: z.array(z.enum(["read", "create", "update"])).default([]),
    allowedIps: z.array(z.string()).optional(),
  })
  .strict();

const fileSchema = z.object({ buckets: z.array(bucketSchema) }).strict();

export type BucketConfig = z.infer<typeof bucketSchema>;

export interface Bucket extends BucketConfig {
  allowList: AllowList;
}

export const sampleBuckets: BucketConfig[] = [
  { name: "public-assets", permission: "public", access: ["read", "create", "update"] },
  { name: "team-files", permission: "limitedPublic", access: ["read", "create", "update"], allowedIps: ["127.0.0.1", "::1"] },
  { name: "vault", permission: "forbidden", access: [] },
];

/** Parses and checks a buckets.json text; the error names the file and what is wrong. */
export function parseBuckets(text: string, source: string): Bucket[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${source} is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${source}: ${issue.path.join(".") || "(top level)"}: ${issue.message}`);
  }
  const seen = new Set<string>();
  return parsed.data.buckets.map((b) => {
    if (seen.has(b.name)) throw new Error(`${source}: bucket "${b.name}" is listed twice.`);
    seen.add(b.name);
    if (b.permission === "limitedPublic" && !b.allowedIps?.length) {
      throw new Error(`${source}: bucket "${b.name}" is limitedPublic but has no allowedIps.`);
    }
    try {
      return { ...b, allowList: compileAllowList(b.allowedIps ?? []) };
    } catch (e) {
      throw new Error(`${source}: bucket "${b.name}": ${(e as Error).message}`, { cause: e });
    }
  });
}

/** Reads DATA_DIR/buckets.json, writing the sample buckets there first if it does not exist. */
export function loadBuckets(dataDir: string): { buckets: Bucket[]; created: boolean } {
  const file = path.join(dataDir, BUCKETS_FILE);
  let created = false;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    created = writeFileOnceSync(file, `${JSON.stringify({ buckets: sampleBuckets }, null, 2)}\n`);
  }
  return { buckets: parseBuckets(fs.readFileSync(file, "utf8"), file), created };
}

export const toMetaBucket = (b: Bucket): MetaBucket => ({ name: b.name, permission: b.permission, access: [...b.access] });

/** What a request wants to do; each maps to one access kind. */
export type Operation = "read" | "list" | "sign" | "create" | "update" | "delete";

const accessFor: Record<Operation, BucketAccess> = {
  read: "read",
  list: "read",
  sign: "read",
  create: "create",
  update: "update",
  delete: "update",
};

export interface Caller {
  /** Whether a valid x-api-key came with the request. */
  hasKey: boolean;
  address: string | undefined;
  /** Reading through a signed URL: the signature stands in for key and address. */
  signed?: boolean;
}

/**
 * Decides per interface §2.6/§5 and decisions §7: forbidden is a 403 for everyone; writes and
 * the key-only extensions always need a key; limitedPublic needs a key and an allowed address;
 * and the bucket must grant the access kind. Returns the failure, or undefined when allowed.
 */
export function authorize(bucket: Bucket, op: Operation, caller: Caller): Failure | undefined {
  if (bucket.permission === "forbidden") {
    return { code: "forbidden", message: `Bucket "${bucket.name}" is forbidden: its files cannot be reached through the API.` };
  }
  if (!caller.signed) {
    const needsKey = op !== "read" || bucket.permission === "limitedPublic";
    if (needsKey && !caller.hasKey) {
      return { code: "auth_error", subCode: 4, message: "The API key is invalid or missing: send it in the x-api-key header." };
    }
    if (bucket.permission === "limitedPublic" && !bucket.allowList.allows(caller.address)) {
      return {
        code: "forbidden",
        message: `Bucket "${bucket.name}" accepts requests only from its allowed addresses, and ${caller.address ?? "your address"} is not one of them.`,
      };
    }
  }
  const access = accessFor[op];
  if (!bucket.access.includes(access)) {
    return { code: "forbidden", message: `Bucket "${bucket.name}" does not grant ${access} access (it grants: ${bucket.access.join(", ") || "nothing"}).` };
  }
  return undefined;
}
