/**
 * Signed URLs (interface §4.5, decisions §7). HMAC-SHA256 over bucket, versioned key, Expires and
 * Key-Pair-Id: the service both signs and verifies, so a public half (Ed25519) would buy nothing,
 * and HMAC is faster and compares in constant time directly. Key pairs live in one file
 * (STORAGE_SIGNING_KEYS_FILE, default DATA_DIR/storage-signing-keys.json, mode 0600) that every
 * instance reads; rotating adds a new active pair while older ones keep verifying until retired.
 * The request path never touches the file system synchronously: the pairs are held in memory
 * and re-read in the background when the file changes (issue 9.7, issue 12 item 4).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { writeFileOnce } from "../../../write-once";
import { type Result, fail, ok } from "../../../../shared/errors";

export const SIGNING_KEYS_FILE = "storage-signing-keys.json";

export interface KeyPair {
  id: string;
  /** base64url of 32 random bytes. */
  secret: string;
  createdAt: string;
  retiredAt?: string;
}

export interface KeyringData {
  active: string;
  pairs: KeyPair[];
}

export interface SignedParams {
  bucket: string;
  versionedKey: string;
  expires: number;
  keyPairId: string;
}

// Newlines cannot occur in bucket names or keys (control characters are refused), so the fields
// of the string to sign cannot run into each other.
export const stringToSign = (p: SignedParams) => `${p.bucket}\n${p.versionedKey}\n${p.expires}\n${p.keyPairId}`;

export function signature(secret: string, p: SignedParams): string {
  return createHmac("sha256", Buffer.from(secret, "base64url")).update(stringToSign(p), "utf8").digest("base64url");
}

const newPair = (): KeyPair => ({
  id: `kp_${randomBytes(6).toString("hex")}`,
  secret: randomBytes(32).toString("base64url"),
  createdAt: new Date().toISOString(),
});

function writeKeyring(file: string, data: KeyringData): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

function parseKeyring(text: string, file: string): KeyringData {
  const data = JSON.parse(text) as KeyringData;
  if (!data.active || !Array.isArray(data.pairs) || !data.pairs.some((p) => p.id === data.active && !p.retiredAt)) {
    throw new Error(`${path.basename(file)}: "active" must name a key pair that is not retired.`);
  }
  return data;
}

const readKeyring = (file: string) => parseKeyring(fs.readFileSync(file, "utf8"), file);

/** Adds a new pair and makes it the one that signs; older pairs keep verifying. Returns its id. (CLI, start-up: may block.) */
export function rotateSigningKey(file: string): string {
  const data = fs.existsSync(file) ? readKeyring(file) : { active: "", pairs: [] };
  const pair = newPair();
  writeKeyring(file, { active: pair.id, pairs: [...data.pairs, pair] });
  return pair.id;
}

/** Retires a pair: URLs signed with it stop working. The active pair cannot be retired. */
export function retireSigningKey(file: string, id: string): void {
  const data = readKeyring(file);
  const pair = data.pairs.find((p) => p.id === id);
  if (!pair) throw new Error(`No key pair "${id}" in ${file}.`);
  if (data.active === id) throw new Error(`"${id}" is the active key pair: rotate first, then retire it.`);
  pair.retiredAt ??= new Date().toISOString();
  writeKeyring(file, data);
}

export interface Keyring {
  sign(p: Omit<SignedParams, "keyPairId">): Promise<{ keyPairId: string; signature: string }>;
  verify(query: Record<string, unknown>, target: { bucket: string; versionedKey: string }, nowSeconds?: number): Promise<Result<{ expires: number }>>;
  close(): void;
}

/** How stale the in-memory pairs may get when no file-change event arrives (a shared network file system). */
const REFRESH_MS = 1000;
/** A Key-Pair-Id this instance does not know forces a re-read, at most this often (a pair just rotated in elsewhere). */
const MISS_REFRESH_MS = 100;

/**
 * Opens the key pair file (creating it with one pair on first start) and follows changes to it,
 * so a rotation or retirement made by the CLI or another instance takes effect without a restart.
 */
export async function openKeyring(file: string): Promise<Keyring> {
  if (!fs.existsSync(file)) {
    const pair = newPair();
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // When two instances start at once on a shared file, the second reads the first's pair.
    await writeFileOnce(file, `${JSON.stringify({ active: pair.id, pairs: [pair] }, null, 2)}\n`, 0o600);
  }
  let data = parseKeyring(await fs.promises.readFile(file, "utf8"), file);
  let stamp = "";
  let checkedAt = 0;
  let checking: Promise<void> | undefined;
  const refresh = (): Promise<void> =>
    (checking ??= (async () => {
      try {
        const st = await fs.promises.stat(file);
        const s = `${st.mtimeMs}:${st.size}:${st.ino}`;
        if (s !== stamp) {
          data = parseKeyring(await fs.promises.readFile(file, "utf8"), file);
          stamp = s;
        }
      } catch {
        // Mid-rename or briefly unreadable: keep the pairs we have, try again next time.
      } finally {
        checkedAt = Date.now();
        checking = undefined;
      }
    })());
  await refresh();
  let watcher: fs.FSWatcher | undefined;
  try {
    // The directory, not the file: a rotation replaces the file by a rename.
    watcher = fs.watch(path.dirname(file), { persistent: false }, (_event, name) => {
      if (!name || name === path.basename(file)) void refresh();
    });
    watcher.on("error", () => watcher?.close());
  } catch {
    // No change events here (some network file systems): the periodic check is enough.
  }
  const current = () => {
    if (Date.now() - checkedAt >= REFRESH_MS) void refresh();
    return data;
  };
  const denied = (message: string) => fail("forbidden", `The signed URL is not valid: ${message}. Ask for a new one.`);
  return {
    async sign(p) {
      const d = current();
      const pair = d.pairs.find((k) => k.id === d.active)!;
      return { keyPairId: pair.id, signature: signature(pair.secret, { ...p, keyPairId: pair.id }) };
    },
    async verify(query, target, nowSeconds = Date.now() / 1000) {
      const { Expires: expiresRaw, "Key-Pair-Id": keyPairId, Signature: given } = query;
      if (typeof expiresRaw !== "string" || typeof keyPairId !== "string" || typeof given !== "string") {
        return denied("it needs exactly one Expires, Key-Pair-Id and Signature parameter");
      }
      // Canonical digits only: "0123" must not pass for "123" (any changed character is a 403).
      if (!/^[1-9]\d{0,11}$/.test(expiresRaw)) return denied("Expires is not a time in epoch seconds");
      let known = current().pairs.find((k) => k.id === keyPairId);
      if (!known && Date.now() - checkedAt >= MISS_REFRESH_MS) {
        await refresh();
        known = data.pairs.find((k) => k.id === keyPairId);
      }
      if (!known || known.retiredAt) return denied("its key pair is unknown or retired");
      const expires = Number(expiresRaw);
      const expected = Buffer.from(signature(known.secret, { ...target, expires, keyPairId }));
      const actual = Buffer.from(given);
      // Compare the base64url text, not decoded bytes: two spellings of one value must not both pass.
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return denied("the signature does not match");
      if (nowSeconds >= expires) return denied("it has expired");
      return ok({ expires });
    },
    close() {
      watcher?.close();
    },
  };
}
