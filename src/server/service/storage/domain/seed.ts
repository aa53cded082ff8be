/**
 * Sample files for the sample buckets (decisions §2), stored through the same path as uploads
 * (blob, then row). The catalog keys are the ones the records seed's `catalog` table
 * names in its image field.
 */
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { objectBlob, type StorageDomain } from "./storage-domain";
import { banner, catalogPicture, logoSvg, samplePdf } from "./seed-content";

export const CATALOG_KEYS = ["catalog/lamp.png", "catalog/chair.png", "catalog/desk.jpg", "catalog/shelf.jpg", "catalog/plant.png", "catalog/clock.jpg"];

async function put(deps: StorageDomain, bucket: string, key: string, body: Buffer | string, contentType: string): Promise<void> {
  if (!deps.buckets.has(bucket)) return;
  const data = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  const file = randomUUID();
  const { size, sha256 } = await deps.blobs.put(objectBlob(bucket, file), Readable.from([data]));
  await deps.metadata.commit({ bucket, key, file, size, contentType, sha256 }, { create: true, update: true });
}

export async function seedSampleFiles(deps: StorageDomain): Promise<void> {
  for (const key of CATALOG_KEYS) {
    const name = key.slice("catalog/".length, key.lastIndexOf("."));
    const png = key.endsWith(".png");
    await put(deps, "public-assets", key, await catalogPicture(name, png ? "png" : "jpeg"), png ? "image/png" : "image/jpeg");
  }
  await put(deps, "public-assets", "banners/welcome.jpg", await banner(1600, 500, "Welcome to Baseboard", "#dbe9ff", "#7aa7e0", "jpeg"), "image/jpeg");
  await put(deps, "public-assets", "logo.svg", logoSvg, "image/svg+xml");
  await put(deps, "public-assets", "notes/about.txt", "Public sample files for the catalog table and the bucket browser.\n", "text/plain");

  await put(
    deps,
    "team-files",
    "docs/manual.pdf",
    samplePdf("Baseboard team manual", [
      "1. Records live in tables; filter, sort and edit them in the grid.",
      "2. Files live in buckets; team-files is readable only from allowed addresses.",
      "3. Share a file with a signed URL; it expires after an hour by default.",
    ]),
    "application/pdf",
  );
  await put(deps, "team-files", "docs/readme.txt", "team-files holds internal documents.\nIt is limitedPublic: an API key and an allowed address are required.\n", "text/plain");
  await put(deps, "team-files", "photos/offsite.jpg", await banner(1200, 800, "Team offsite", "#ffe7d6", "#e59866", "jpeg"), "image/jpeg");
  await put(deps, "team-files", "photos/whiteboard.png", await banner(1024, 768, "Whiteboard", "#f4f6f7", "#aab7b8", "png"), "image/png");

  await put(deps, "vault", "secrets/recovery-codes.txt", "This bucket is forbidden: the API never serves this file.\n", "text/plain");
}
