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
