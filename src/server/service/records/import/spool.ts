/**
 * An import's body streamed to a temporary file. Past the size limit the request is cut (413,
 * as for uploads). When the disk refuses the file (full, read-only) the rest of the body is
 * still read and dropped, so the client gets its 507 / 503 on an intact connection instead
 * of a reset; the message never names the path.
 */
import fs from "node:fs";
import path from "node:path";
import { Transform, type Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { HttpError } from "../../../http-error";
import { fsKind, stateFailure } from "../../engines/failures";

export async function spoolBody(body: Readable, file: string, maxBytes: number): Promise<void> {
  let size = 0;
  let refused: unknown;
  let out: fs.WriteStream | undefined;
  try {
    // Not recursive: DATA_DIR exists, and a recursive mkdir reports a read-only disk as ENOENT.
    try {
      await fs.promises.mkdir(path.dirname(file));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    out = fs.createWriteStream(file, { flags: "wx" });
    out.on("error", (e) => (refused ??= e));
  } catch (e) {
    refused = e;
  }
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (refused || !out) return done();
      out.write(chunk, (e) => {
        if (e) refused ??= e;
        done();
      });
    },
    final(done) {
      if (refused || !out) {
        out?.destroy();
        return done();
      }
      out.end(() => done());
    },
  });
  await pipeline(
    body,
    new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes) done(new HttpError("payload_too_large", `The CSV is over this service's limit of ${maxBytes} bytes; nothing was imported.`));
        else done(null, chunk);
      },
    }),
    sink,
  );
  if (refused) {
    const state = stateFailure(fsKind(refused));
    if (state && !state.ok) throw HttpError.from({ ...state.error, message: state.error.message.replace("nothing was written", "nothing was imported") });
    throw refused;
  }
}
