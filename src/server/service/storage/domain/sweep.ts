/**
 * Start-up repair (issue 12 item 5), on either backend: unfinished writes of a crashed process,
 * object blobs without a row (a crash between blob and row), rows whose blob is gone, and
 * variants of versions that no longer exist. Only what is older than the grace period is
 * swept, since another live instance on the same bucket may be between "blob" and "row".
 */
import type { BlobEntry } from "../../blobs/blob-store";
import { objectBlob, type StorageDomain } from "./storage-domain";

export interface SweepReport {
  incomplete: number;
  orphans: number;
  missing: number;
  staleVariants: number;
  /**
   * Set when the file store and the database disagree wholesale (most files on either side
   * unknown to the other): nothing of either was removed, and this says why.
   */
  mismatch?: string;
}

/**
 * From this many, a repair that would remove more than half of what is there is a store and a
 * database that do not belong together (a second instance on a shared database whose DATA_DIR is
 * not the shared volume: review 56a #1 erased every file's row, and then the first instance's next
 * start deleted the bytes), not a crash, which leaves a few.
 */
export const MISMATCH_FROM = 5;

export async function sweepStorage(d: StorageDomain, graceSeconds: number): Promise<SweepReport> {
  const olderThan = new Date(Date.now() - graceSeconds * 1000);
  const report: SweepReport = { incomplete: await d.blobs.sweepIncomplete(olderThan), orphans: 0, missing: 0, staleVariants: 0 };
  const live = new Set<string>();
  // Found first, across every bucket, and removed only once the whole is known to agree.
  const orphans: string[] = [];
  const missing: { bucket: string; file: string }[] = [];
  let rows = 0;
  let blobCount = 0;
  for (const bucket of d.buckets.keys()) {
    const known = await d.metadata.files(bucket);
    rows += known.size;
    const present = new Set<string>();
    for await (const blob of d.blobs.list(`objects/${bucket}/`)) {
      blobCount++;
      const file = blob.name.slice(`objects/${bucket}/`.length);
      if (known.has(file)) present.add(file);
      else if (blob.lastModified <= olderThan) orphans.push(blob.name);
    }
    for (const file of known) {
      if (present.has(file)) live.add(`${bucket}/${file}`);
      // Looked at again one by one: it may have been written since the listing began.
      else if (!(await d.blobs.head(objectBlob(bucket, file)))) missing.push({ bucket, file });
      else live.add(`${bucket}/${file}`);
    }
  }
  const wholesale = (n: number, of: number) => n >= MISMATCH_FROM && n * 2 > of;
  if (wholesale(missing.length, rows) || wholesale(orphans.length, blobCount)) {
    report.mismatch =
      `the file store and the database do not match: ${missing.length} of the ${rows} files the database lists have no stored bytes, ` +
      `and ${orphans.length} of the ${blobCount} stored files are in no row. Nothing was removed. Check that DATA_DIR (or STORAGE_URL) is the ` +
      "store this database's files were written to: every instance on one DATABASE_URL needs the same one.";
    // Rows with no bytes stay (their reads fail until the bytes are back); so do bytes with no row.
    for (const m of missing) live.add(`${m.bucket}/${m.file}`);
  } else {
    await d.blobs.delete(orphans);
    report.orphans = orphans.length;
    for (const m of missing) await d.metadata.removeFile(m.bucket, m.file);
    report.missing = missing.length;
  }
  const variants: BlobEntry[] = [];
  const stale: string[] = [];
  for await (const v of d.blobs.list("variants/")) {
    const [, bucket, file] = v.name.split("/");
    if (live.has(`${bucket}/${file}`)) variants.push(v);
    else stale.push(v.name);
  }
  await d.blobs.delete(stale);
  report.staleVariants = stale.length;
  // Oldest first, so the least recently made are the first evicted.
  variants.sort((a, b) => a.lastModified.getTime() - b.lastModified.getTime());
  for (const v of variants) d.variants.adopt(v);
  await d.variants.trim();
  return report;
}
