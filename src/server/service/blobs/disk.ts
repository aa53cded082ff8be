/**
 * The disk backend (the default): blobs are files under DATA_DIR/storage, named by the service
 * (`objects/<bucket>/<id>`), never by a client's key. A put is written to tmp/ and renamed into
 * place (same file system), with an fsync first, so a reader or a crash never sees half a blob
 * and an acknowledged upload survives more than a process crash. tmp/ is emptied at start-up.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type BlobEntry, BlobError, type BlobStore, BlobTooLarge, type ByteRange, diskFailure } from "./blob-store";
import { createMeter } from "./meter";

/** Names come from the service, but a name that could climb out of the root is refused all the same. */
function safeName(name: string): string {
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(name) || name.split("/").some((s) => s === "." || s === "..")) {
    throw new Error(`invalid blob name ${JSON.stringify(name)}`);
  }
  return name;
}

/** Errors that carry a path are re-thrown without it (issue 9.5: no message carries a path). */
function wrap(err: unknown, doing: string): Error {
  if (err instanceof BlobTooLarge || err instanceof BlobError) return err;
  const failure = diskFailure(err);
  const code = (err as NodeJS.ErrnoException)?.code ?? "error";
  if (failure) return new BlobError(failure, `${doing} failed on the service's disk (${code})`, { cause: err });
  return new Error(`${doing} failed (${code})`, { cause: err });
}

export function openDiskStore(root: string): BlobStore {
  const tmp = path.join(root, "tmp");
  fs.mkdirSync(tmp, { recursive: true });
  const full = (name: string) => path.join(root, safeName(name));

  async function* walk(dir: string, rel: string): AsyncIterable<BlobEntry> {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
      throw wrap(e, "listing");
    }
    for (const e of entries) {
      const name = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) yield* walk(path.join(dir, e.name), name);
      else {
        const st = await fs.promises.stat(path.join(dir, e.name)).catch(() => undefined);
        if (st) yield { name, size: st.size, lastModified: st.mtime };
      }
    }
  }

  return {
    kind: "disk",
    async put(name, body, opts = {}) {
      const target = full(name);
      const part = path.join(tmp, `${randomUUID()}.part`);
      const meter = createMeter(opts.maxBytes);
      try {
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await pipeline(body, meter, fs.createWriteStream(part, { flags: "wx", flush: true }));
        await fs.promises.rename(part, target);
        return meter.result();
      } catch (e) {
        body.destroy();
        await fs.promises.rm(part, { force: true }).catch(() => undefined);
        throw wrap(e, "writing a file");
      }
    },
    async get(name, range?: ByteRange): Promise<Readable> {
      let handle: fs.promises.FileHandle;
      try {
        // Opened before anything is sent: a blob deleted in between is a clean not_found.
        handle = await fs.promises.open(full(name), "r");
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new BlobError("not_found", "the file is gone");
        throw wrap(e, "reading a file");
      }
      return handle.createReadStream({ start: range?.start ?? 0, end: range?.end, highWaterMark: 64 * 1024 });
    },
    async head(name) {
      try {
        return { size: (await fs.promises.stat(full(name))).size };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw wrap(e, "reading a file");
      }
    },
    async delete(names) {
      try {
        await Promise.all(names.map((n) => fs.promises.rm(full(n), { force: true })));
      } catch (e) {
        throw wrap(e, "deleting a file");
      }
    },
    list(prefix) {
      // Walk only the deepest directory the prefix names, then filter by the rest.
      const slash = prefix.lastIndexOf("/");
      const dirRel = slash >= 0 ? prefix.slice(0, slash) : "";
      const dir = dirRel ? path.join(root, safeName(dirRel)) : root;
      const source = walk(dir, dirRel);
      return (async function* () {
        for await (const entry of source) if (entry.name.startsWith(prefix) && !entry.name.startsWith("tmp/")) yield entry;
      })();
    },
    async sweepIncomplete(olderThan = new Date()) {
      // Whatever is in tmp/ at start-up belongs to a process that is gone.
      let swept = 0;
      for (const n of await fs.promises.readdir(tmp)) {
        const st = await fs.promises.stat(path.join(tmp, n)).catch(() => undefined);
        if (st && st.mtime > olderThan) continue;
        await fs.promises.rm(path.join(tmp, n), { force: true, recursive: true });
        swept++;
      }
      return swept;
    },
    async close() {},
  };
}
