/**
 * The `key` field of an upload's multipart body, read only as far as that field (busboy, through
 * `multipartKeySniffer`): what an upload the proxy refuses asked for, for the audit trail. The
 * file part is not read; a body whose key comes after the file, or that is not multipart, or
 * that does not arrive in `ms`, gives none, and so does a key longer than any the service takes
 * (cut short, it would name another file). The rest of the body is left to the caller
 * (discardRest once the answer has gone).
 */
import type { IncomingMessage } from "node:http";
import busboy from "busboy";

/** Fields before the file are small: a key is at most 1,024 bytes; other fields may precede it. */
const LIMITS = { fields: 200, fieldSize: 4096, parts: 201 };

export function multipartKey(req: IncomingMessage, ms: number): Promise<string | undefined> {
  const sniffer = multipartKeySniffer(req.headers);
  const feed = (chunk: Buffer) => sniffer.feed(chunk);
  const ended = () => sniffer.end();
  req.on("data", feed);
  req.once("end", ended);
  return sniffer.settled(ms).then((key) => {
    req.off("data", feed);
    req.off("end", ended);
    // Read no further: the rest is the caller's (discardRest).
    req.pause();
    return key;
  });
}

/** How far into a forwarded upload's body its key is looked for. */
const SNIFF_BYTES = 64 * 1024;

/**
 * The `key` field of an upload's multipart body as it is forwarded (fed its chunks), for an
 * upload the service refuses: its answer names no key, and the trail should. Looks no further
 * than the first 64 KB, and stops at the file part; `key()` is undefined when it was not there.
 * The service may refuse from the headers alone, before the field has come: `settled(ms)` waits
 * that long at most for the sniffing to end (the caller keeps the body flowing meanwhile).
 */
export function multipartKeySniffer(headers: IncomingMessage["headers"]): {
  feed(chunk: Buffer): void;
  /** The body has ended: no key is coming. */
  end(): void;
  readonly done: boolean;
  key(): string | undefined;
  settled(ms: number): Promise<string | undefined>;
} {
  let found: string | undefined;
  let done = false;
  let seen = 0;
  let parser: busboy.Busboy | undefined;
  const waiting: (() => void)[] = [];
  try {
    parser = busboy({ headers, limits: LIMITS });
  } catch {
    done = true;
  }
  const stop = () => {
    done = true;
    parser?.removeAllListeners("file");
    parser?.on("error", () => {});
    for (const wake of waiting.splice(0)) wake();
  };
  parser?.on("field", (name, value, info) => {
    if (name !== "key" || done) return;
    if (!info.valueTruncated) found = value;
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
    end() {
      if (!done) stop();
    },
    get done() {
      return done;
    },
    key: () => found,
    settled(ms) {
      if (done) return Promise.resolve(found);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(found), ms);
        waiting.push(() => {
          clearTimeout(timer);
          resolve(found);
        });
      });
    },
  };
}
