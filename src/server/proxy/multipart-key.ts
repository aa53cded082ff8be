/**
 * The `key` field of an upload's multipart body, read only as far as that field (busboy): what a
 * refused upload asked for, for the audit trail. The file part is not read; a body whose key
 * comes after the file, or that is not multipart, or that does not arrive in `ms`, gives none.
 * The rest of the body is left to the caller (discardRest once the answer has gone).
 */
import type { IncomingMessage } from "node:http";
import busboy from "busboy";

export function multipartKey(req: IncomingMessage, ms: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fields: 20, fieldSize: 4096, parts: 21 } });
    } catch {
      return resolve(undefined);
    }
    let settled = false;
    const done = (key: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.unpipe(parser);
      resolve(key);
    };
    const timer = setTimeout(() => done(undefined), ms);
    parser.on("field", (name, value) => name === "key" && done(value));
    parser.on("file", (_name, file) => {
      file.resume();
      done(undefined);
    });
    parser.on("close", () => done(undefined));
    parser.on("error", () => done(undefined));
    req.pipe(parser);
  });
}

/** How far into a forwarded upload's body its key is looked for. */
const SNIFF_BYTES = 64 * 1024;

/**
 * The `key` field of an upload's multipart body as it is forwarded (fed its chunks), for an
 * upload the service refuses: its answer names no key, and the trail should. Looks no further
 * than the first 64 KB, and stops at the file part; `key()` is undefined when it was not there.
 */
export function multipartKeySniffer(headers: IncomingMessage["headers"]): { feed(chunk: Buffer): void; readonly done: boolean; key(): string | undefined } {
  let found: string | undefined;
  let done = false;
  let seen = 0;
  let parser: busboy.Busboy | undefined;
  try {
    parser = busboy({ headers, limits: { fields: 20, fieldSize: 4096, parts: 21 } });
  } catch {
    done = true;
  }
  const stop = () => {
    done = true;
    parser?.removeAllListeners("file");
    parser?.on("error", () => {});
  };
  parser?.on("field", (name, value) => {
    if (name !== "key" || done) return;
    found = value;
    stop();
  });
  parser?.on("file", (_name, file) => {
    file.resume();
    stop();
  });
  parser?.on("error", () => stop());
  return {
    feed(chunk) {
      if (done || !parser) return;
      seen += chunk.length;
      parser.write(chunk);
      if (seen >= SNIFF_BYTES) stop();
    },
    get done() {
      return done;
    },
    key: () => found,
  };
}
