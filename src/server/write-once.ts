import fs from "node:fs";
import { randomBytes } from "node:crypto";

/**
 * Files made on first start (the sample buckets, key pairs, secrets) are read by every instance
 * sharing DATA_DIR. Writing them in place with `wx` let a second instance starting at the same
 * moment read the file while it was still empty ("Unexpected end of JSON input"). These write
 * the whole text to a file of their own, then link it into place: the name appears with its
 * content or not at all, and a name that already exists is kept (the first writer wins).
 * Each returns whether this call created the file.
 */
export function writeFileOnceSync(file: string, text: string, mode = 0o644): boolean {
  const tmp = tempName(file);
  fs.writeFileSync(tmp, text, { mode, flag: "wx" });
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

export async function writeFileOnce(file: string, text: string, mode = 0o644): Promise<boolean> {
  const tmp = tempName(file);
  await fs.promises.writeFile(tmp, text, { mode, flag: "wx" });
  try {
    await fs.promises.link(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
}

const tempName = (file: string) => `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
