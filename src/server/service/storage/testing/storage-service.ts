/**
 * Helpers for the storage HTTP tests: a service on the backend under test, multipart uploads
 * with fetch, raw requests (for paths a URL parser would normalise, for a chosen source address,
 * and for cutting a body off), and a look at what is stored, on disk or in the bucket.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { BlobStore } from "../../blobs/blob-store";
import { openBlobStore } from "../../blobs/open";
import { freshS3Bucket } from "../../blobs/testing/s3-test-bucket";
import { type ServiceConfig, parseServiceConfig } from "../../config";
import { openEngine } from "../../engines/open";
import { type TestService, startTestService, testEngineConfig } from "../../testing/test-service";
import { OBJECTS } from "../metadata";

export const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

export async function upload(
  svc: TestService,
  bucket: string,
  key: string,
  body: Buffer | string,
  opts: { type?: string; apiKey?: string | null } = {},
): Promise<Response> {
  const form = new FormData();
  form.append("key", key);
  form.append("file", new Blob([typeof body === "string" ? body : new Uint8Array(body)], { type: opts.type ?? "application/octet-stream" }), "upload.bin");
  const headers: Record<string, string> = {};
  if (opts.apiKey !== null) headers["x-api-key"] = opts.apiKey ?? svc.key;
  return fetch(`${svc.url}/v0/storage/object/${bucket}`, { method: "POST", body: form, headers });
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request over a fresh connection, path sent exactly as given. */
export function rawRequest(
  svc: TestService,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string; localAddress?: string },
): Promise<RawResponse> {
  const u = new URL(svc.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, method: opts.method ?? "GET", path: opts.path, headers: opts.headers, localAddress: opts.localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** A multipart body with the given parts, in order. */
export function multipart(parts: { name: string; value: Buffer | string; filename?: string; type?: string }[]): { body: Buffer; contentType: string } {
  const boundary = `----bbtest${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += "\r\n";
    if (p.type) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(p.value), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Every file under a directory, relative, sorted (the database files excluded: they change on reads too). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (!e.name.startsWith("baseboard.")) out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

export async function waitFor(check: () => boolean, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

export const tmpDir = (svc: TestService) => path.join(svc.dataDir, "storage", "tmp");

/** Writes DATA_DIR/buckets.json before a service starts on that directory. */
export function writeBuckets(dataDir: string, buckets: unknown[]): void {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, "buckets.json"), JSON.stringify({ buckets }));
}

/** Every metadata row (file, size) of a bucket, read from the data directory's database once no service holds it. */
export async function storageRows(dataDir: string, bucket: string): Promise<{ file: string; size: number }[]> {
  const engine = await openEngine({ ...parseServiceConfig([], {}), dataDir, ...(await testEngineConfig(dataDir)) });
  try {
    const q = engine.builder.selectFrom(OBJECTS).select(["file", "size"]).where("bucket", "=", bucket).compile();
    const [{ rows }] = await engine.read([q]);
    return rows.map(([file, size]) => ({ file: String(file), size: Number(size) }));
  } finally {
    await engine.close();
  }
}

/**
 * The blob backend these suites run on: disk by default; S3 (a bucket of the run's s3rver) in
 * the `storage-s3` vitest project, which sets TEST_STORAGE_BACKEND=s3 (vitest.config.ts).
 */
export const BACKEND: "disk" | "s3" = process.env.TEST_STORAGE_BACKEND === "s3" ? "s3" : "disk";

export interface StorageTestService extends TestService {
  backend: "disk" | "s3";
  /** The service's blob store, opened a second time by the test to look at what is stored. */
  blobs: BlobStore;
}

/** A real service on the backend under test (each on S3 gets a bucket of its own). */
export async function startStorageService(overrides: Partial<ServiceConfig> = {}): Promise<StorageTestService> {
  const blobStore = overrides.blobStore ?? (BACKEND === "s3" ? await freshS3Bucket() : { kind: "disk" as const });
  const svc = await startTestService({ ...overrides, blobStore });
  const blobs = openBlobStore(blobStore, svc.dataDir);
  return {
    ...svc,
    backend: blobStore.kind,
    blobs,
    async close() {
      await blobs.close();
      await svc.close();
    },
  };
}

/** Names of the stored blobs under a prefix (`objects/<bucket>/`, `variants/…`), sorted. */
export async function blobNames(svc: StorageTestService, prefix = ""): Promise<string[]> {
  const names: string[] = [];
  for await (const e of svc.blobs.list(prefix)) names.push(e.name);
  return names.sort();
}

/** Everything stored: files in the data directory (database aside) and, on S3, the bucket's objects. */
export async function stored(svc: StorageTestService): Promise<string[]> {
  const files = filesUnder(svc.dataDir);
  return svc.backend === "s3" ? [...files, ...(await blobNames(svc)).map((n) => `s3:${n}`)] : files;
}

/** Whether half-written blobs are around: temp files on disk (S3 shows an object only once it is whole). */
export const partialWrites = (svc: StorageTestService): number => (svc.backend === "disk" ? fs.readdirSync(tmpDir(svc)).length : 0);

export async function waitForAsync(check: () => Promise<boolean>, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}
