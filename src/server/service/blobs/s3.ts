/**
 * The S3 backend (STORAGE_URL=s3://bucket/prefix): blobs are objects `<prefix><name>` in one
 * bucket of any S3-compatible store. Uploads go through lib-storage's Upload: one PUT for a small
 * body, multipart for a large one, with at most `queueSize` parts of `partSize` bytes in memory;
 * S3 makes an object visible only once complete, and a failed multipart upload is aborted, so a
 * failed put leaves nothing. Ranges are ranged GETs.
 */
import { Agent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { PassThrough, type Readable } from "node:stream";
import { pipeline } from "node:stream";
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { type BlobEntry, BlobError, type BlobFailure, type BlobStore, BlobTooLarge, type ByteRange } from "./blob-store";
import { createMeter } from "./meter";
import { sliceStream } from "./slice";
import type { BlobStoreConfig } from "./storage-url";

type S3Config = Extract<BlobStoreConfig, { kind: "s3" }>;

const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
const DELETE_CONCURRENCY = 8;

const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "ECONNABORTED"]);

/** The one place S3 errors become BlobErrors: what kind of failure, never the endpoint's address. */
export function s3Failure(err: unknown): BlobFailure {
  const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; cause?: { code?: string } };
  const status = e.$metadata?.httpStatusCode;
  // A missing bucket is a configuration the store refuses, not a missing object.
  if (e.name === "NoSuchBucket") return "refused";
  if (e.name === "NoSuchKey" || e.name === "NotFound" || status === 404) return "not_found";
  if (NETWORK_CODES.has(e.code ?? "") || NETWORK_CODES.has(e.cause?.code ?? "") || e.name === "TimeoutError" || (status === undefined && !e.name?.match(/^[A-Z]/))) {
    return "unreachable";
  }
  if (status === 507 || e.name === "XMinioStorageFull" || e.name === "QuotaExceeded") return "full";
  if (status === undefined) return "unreachable";
  return "refused";
}

function wrap(err: unknown, doing: string): Error {
  if (err instanceof BlobTooLarge || err instanceof BlobError) return err;
  const failure = s3Failure(err);
  const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const detail = e.$metadata?.httpStatusCode ? `${e.name ?? "error"}, HTTP ${e.$metadata.httpStatusCode}` : (e.code ?? e.name ?? "error");
  return new BlobError(failure, `${doing} in the object store failed (${detail})`, { cause: err });
}

export function openS3Store(config: S3Config): BlobStore {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // Fail over quickly when the store is down: one retry, a short connect timeout.
    maxAttempts: 2,
    // Checksums only where S3 requires them: S3-compatible servers do not all understand the
    // aws-chunked trailers the SDK would otherwise send with every streamed upload.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: new NodeHttpHandler({
      connectionTimeout: 3_000,
      requestTimeout: 60_000,
      httpAgent: new Agent({ keepAlive: true, maxSockets: 64 }),
      httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: 64 }),
    }),
  });
  const Bucket = config.bucket;
  const key = (name: string) => config.prefix + name;

  async function* listRaw(prefix: string): AsyncIterable<{ Key: string; Size: number; LastModified: Date }> {
    let token: string | undefined;
    do {
      let page;
      try {
        page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: key(prefix), ContinuationToken: token }));
      } catch (e) {
        throw wrap(e, "listing");
      }
      for (const o of page.Contents ?? []) if (o.Key) yield { Key: o.Key, Size: o.Size ?? 0, LastModified: o.LastModified ?? new Date(0) };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  return {
    kind: "s3",
    async put(name, body, opts = {}) {
      const meter = createMeter(opts.maxBytes);
      const relay = new PassThrough({ highWaterMark: 1024 * 1024 });
      let streamError: Error | undefined;
      pipeline(body, meter, relay, (err) => {
        if (err) streamError = err;
      });
      const upload = new Upload({ client, params: { Bucket, Key: key(name), Body: relay }, partSize: PART_SIZE, queueSize: QUEUE_SIZE, leavePartsOnError: false });
      try {
        await upload.done();
      } catch (e) {
        body.destroy();
        throw wrap(streamError ?? e, "writing");
      }
      if (streamError) {
        // The source failed after the store had everything (cannot normally happen): drop it.
        await client.send(new DeleteObjectCommand({ Bucket, Key: key(name) })).catch(() => undefined);
        throw wrap(streamError, "writing");
      }
      return meter.result();
    },
    async get(name, range?: ByteRange): Promise<Readable> {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket, Key: key(name), Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
        const body = out.Body as Readable;
        if (!range) return body;
        // Exactly the range, even from a server that ignored it (whole object, no Content-Range).
        const skip = out.ContentRange ? 0 : range.start;
        return pipeline(body, sliceStream(skip, range.end - range.start + 1), () => undefined);
      } catch (e) {
        throw wrap(e, "reading");
      }
    },
    async head(name) {
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket, Key: key(name) }));
        return { size: out.ContentLength ?? 0 };
      } catch (e) {
        const err = wrap(e, "reading");
        if (err instanceof BlobError && err.failure === "not_found") return undefined;
        throw err;
      }
    },
    async delete(names) {
      // One DELETE per object, a few at a time: DeleteObjects needs Content-MD5, which not every
      // S3-compatible server checks the same way, and deletes here are a handful of names.
      const queue = [...names];
      const worker = async () => {
        for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
          try {
            await client.send(new DeleteObjectCommand({ Bucket, Key: key(n) }));
          } catch (e) {
            const err = wrap(e, "deleting");
            if (!(err instanceof BlobError && err.failure === "not_found")) throw err;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(DELETE_CONCURRENCY, queue.length) }, worker));
    },
    list(prefix) {
      const source = listRaw(prefix);
      return (async function* (): AsyncIterable<BlobEntry> {
        for await (const o of source) yield { name: o.Key.slice(config.prefix.length), size: o.Size, lastModified: o.LastModified };
      })();
    },
    async sweepIncomplete(olderThan = new Date()) {
      let aborted = 0;
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      try {
        do {
          const page = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: config.prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }));
          for (const u of page.Uploads ?? []) {
            if (!u.Key || !u.UploadId || (u.Initiated && u.Initiated > olderThan)) continue;
            await client.send(new AbortMultipartUploadCommand({ Bucket, Key: u.Key, UploadId: u.UploadId }));
            aborted++;
          }
          [keyMarker, uploadIdMarker] = page.IsTruncated ? [page.NextKeyMarker, page.NextUploadIdMarker] : [undefined, undefined];
        } while (keyMarker);
      } catch (e) {
        const err = wrap(e, "listing unfinished uploads");
        // Some S3-compatible servers (s3rver) do not list multipart uploads: nothing to sweep then.
        if (err instanceof BlobError && err.failure === "refused") return aborted;
        throw err;
      }
      return aborted;
    },
    async close() {
      client.destroy();
    },
  };
}
