/**
 * Counts and hashes the bytes on their way into a backend, and stops the stream past a size
 * limit, so both backends report size and sha256 the same way and neither trusts a declared length.
 */
import { createHash } from "node:crypto";
import { Transform } from "node:stream";
import { BlobTooLarge, type PutResult } from "./blob-store";

export interface Meter extends Transform {
  result(): PutResult;
}

export function createMeter(maxBytes = Number.POSITIVE_INFINITY): Meter {
  const hash = createHash("sha256");
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) return callback(new BlobTooLarge(maxBytes));
      hash.update(chunk);
      callback(null, chunk);
    },
  }) as Meter;
  let digest: string | undefined;
  meter.result = () => ({ size, sha256: (digest ??= hash.digest("hex")) });
  return meter;
}
