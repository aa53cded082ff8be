/**
 * Files on disk under DATA_DIR/storage. File names are random ids, never derived from object
 * keys, so no key can name a path outside its bucket's directory. Uploads and variants are
 * written to tmp/ first and renamed into place (same file system), so a reader or a crash never
 * sees half a file; start-up sweeps whatever a crash left behind.
 *
 *   storage/tmp/<id>.part                 in progress
 *   storage/objects/<bucket>/<id>         one file per object version
 *   storage/variants/<bucket>/<id>/<w>x<h> resized variants of that version
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export interface BlobStore {
  root: string;
  tmpPath(): string;
  newFileId(): string;
  objectPath(bucket: string, file: string): string;
  variantPath(bucket: string, file: string, w: number, h: number): string;
  /** Moves a finished temp file into place as the object file. */
  commit(tmp: string, bucket: string, file: string): Promise<void>;
  /** Removes an object version's file and its variants (missing files are fine). */
  remove(bucket: string, file: string): Promise<void>;
  /** Deletes temp files, object files without a row and variants of vanished versions. Returns rows whose file is missing. */
  sweep(bucket: string, known: Set<string>): { orphans: number; missing: string[] };
}

export function openBlobStore(dataDir: string, buckets: string[]): BlobStore {
  const root = path.join(dataDir, "storage");
  const tmp = path.join(root, "tmp");
  fs.mkdirSync(tmp, { recursive: true });
  for (const b of buckets) {
    fs.mkdirSync(path.join(root, "objects", b), { recursive: true });
    fs.mkdirSync(path.join(root, "variants", b), { recursive: true });
  }
  // Whatever is in tmp/ at start-up belongs to a process that is gone.
  for (const name of fs.readdirSync(tmp)) fs.rmSync(path.join(tmp, name), { force: true, recursive: true });

  const objectPath = (bucket: string, file: string) => path.join(root, "objects", bucket, file);
  const variantDir = (bucket: string, file: string) => path.join(root, "variants", bucket, file);
  return {
    root,
    tmpPath: () => path.join(tmp, `${randomUUID()}.part`),
    newFileId: () => randomUUID(),
    objectPath,
    variantPath: (bucket, file, w, h) => path.join(variantDir(bucket, file), `${w}x${h}`),
    async commit(tmpFile, bucket, file) {
      await fs.promises.rename(tmpFile, objectPath(bucket, file));
    },
    async remove(bucket, file) {
      await fs.promises.rm(objectPath(bucket, file), { force: true });
      await fs.promises.rm(variantDir(bucket, file), { force: true, recursive: true });
    },
    sweep(bucket, known) {
      let orphans = 0;
      const present = new Set<string>();
      for (const name of fs.readdirSync(path.join(root, "objects", bucket))) {
        if (known.has(name)) present.add(name);
        else {
          fs.rmSync(objectPath(bucket, name), { force: true, recursive: true });
          orphans++;
        }
      }
      for (const name of fs.readdirSync(path.join(root, "variants", bucket))) {
        if (!present.has(name)) fs.rmSync(variantDir(bucket, name), { force: true, recursive: true });
      }
      return { orphans, missing: [...known].filter((f) => !present.has(f)) };
    },
  };
}
