/**
 * Where the blobs live, parsed once at start-up from the environment (decisions §9): unset
 * STORAGE_URL means files under DATA_DIR; `s3://bucket/prefix` an S3-compatible store whose
 * endpoint, region and credentials come from the standard AWS variables. Pure.
 */

export type BlobStoreConfig =
  | { kind: "disk" }
  | {
      kind: "s3";
      bucket: string;
      /** "" or ending in "/". */
      prefix: string;
      /** AWS_ENDPOINT_URL_S3 (or AWS_ENDPOINT_URL); unset = AWS itself. */
      endpoint?: string;
      region: string;
      /** Path-style addressing (http://host/bucket/key): what MinIO, s3rver and most S3-compatible servers want. */
      forcePathStyle: boolean;
      /** Unset: the SDK's default chain (profile, instance role…). */
      credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
    };

export function parseStorageUrl(env: NodeJS.ProcessEnv): BlobStoreConfig {
  const raw = env.STORAGE_URL?.trim();
  if (!raw || raw === "file:" || raw === "disk") return { kind: "disk" };
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(raw);
  if (!m) throw new Error(`STORAGE_URL must be s3://bucket or s3://bucket/prefix (got ${JSON.stringify(raw)}).`);
  const prefix = (m[2] ?? "").replace(/^\/+|\/+$/g, "");
  if (prefix.split("/").some((s) => s === "." || s === "..")) throw new Error("STORAGE_URL: the prefix may not contain . or .. segments.");
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  if (endpoint && !/^https?:\/\/[^/]+/.test(endpoint)) throw new Error(`AWS_ENDPOINT_URL_S3 must be an http(s) URL (got ${JSON.stringify(endpoint)}).`);
  const { AWS_ACCESS_KEY_ID: id, AWS_SECRET_ACCESS_KEY: secret, AWS_SESSION_TOKEN: token } = env;
  if (Boolean(id) !== Boolean(secret)) throw new Error("Set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither.");
  const pathStyle = env.AWS_S3_FORCE_PATH_STYLE;
  return {
    kind: "s3",
    bucket: m[1],
    prefix: prefix ? `${prefix}/` : "",
    endpoint,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1",
    // A custom endpoint is almost always an S3-compatible server: path-style unless told otherwise.
    forcePathStyle: pathStyle !== undefined ? pathStyle === "1" || pathStyle === "true" : Boolean(endpoint),
    credentials: id && secret ? { accessKeyId: id, secretAccessKey: secret, ...(token ? { sessionToken: token } : {}) } : undefined,
  };
}
