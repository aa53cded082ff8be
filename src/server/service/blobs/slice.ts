/**
 * Keeps exactly `length` bytes of a stream after skipping `skip`: a ranged GET answered by a
 * store that ignored or stretched the Range (some S3-compatible servers send the whole object,
 * or too much, for bytes=0-0) still yields exactly the bytes the HTTP answer promised.
 */
import { Transform } from "node:stream";

export function sliceStream(skip: number, length: number): Transform {
  let toSkip = skip;
  let left = length;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      let c = chunk;
      if (toSkip > 0) {
        const n = Math.min(toSkip, c.length);
        toSkip -= n;
        c = c.subarray(n);
      }
      if (left <= 0 || c.length === 0) return callback();
      const out = c.length > left ? c.subarray(0, left) : c;
      left -= out.length;
      callback(null, out);
    },
  });
}
