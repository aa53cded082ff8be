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
}

export async function sweepStorage(d: StorageDomain, graceSeconds: number): Promise<SweepReport> {
  const olderThan = new Date(Date.now() - graceSeconds * 1000);
  const report: SweepReport = { incomplete: await d.blobs.sweepIncomplete(olderThan), orphans: 0, missing: 0, staleVariants: 0 };
  const live = new Set<string>();
  for (const bucket of d.buckets.keys()) {
    const known = await d.metadata.files(bucket);
    const present = new Set<string>();
    const orphans: string[] = [];
    for await (const blob of d.blobs.list(`objects/${bucket}/`)) {
      const file = blob.name.slice(`objects/${bucket}/`.length);
      if (known.has(file)) present.add(file);
      else if (blob.lastModified <= olderThan) orphans.push(blob.name);
    }
    await d.blobs.delete(orphans);
    report.orphans += orphans.length;
    for (const file of known) {
      if (present.has(file)) live.add(`${bucket}/${file}`);
      else if (!(await d.blobs.head(objectBlob(bucket, file)))) {
        // Listed again one by one: it may have been written since the listing began.
        await d.metadata.removeFile(bucket, file);
        report.missing++;
      } else live.add(`${bucket}/${file}`);
    }
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
