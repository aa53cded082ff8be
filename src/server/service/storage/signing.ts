/**
 * Signed URLs (interface §4.5, decisions §7). HMAC-SHA256 over bucket, versioned key, Expires and
 * Key-Pair-Id: the service both signs and verifies, so a public half (Ed25519) would buy nothing,
 * and HMAC is faster and compares in constant time directly. Key pairs live in
 * DATA_DIR/storage-signing-keys.json (mode 0600); rotating adds a new active pair while older
 * ones keep verifying until they are retired.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type Result, fail, ok } from "../../../shared/errors";

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
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

function readKeyring(file: string): KeyringData {
  const data = JSON.parse(fs.readFileSync(file, "utf8")) as KeyringData;
  if (!data.active || !Array.isArray(data.pairs) || !data.pairs.some((p) => p.id === data.active && !p.retiredAt)) {
    throw new Error(`${file}: "active" must name a key pair that is not retired.`);
  }
  return data;
}

/** Adds a new pair and makes it the one that signs; older pairs keep verifying. Returns its id. */
export function rotateSigningKey(dataDir: string): string {
  const file = path.join(dataDir, SIGNING_KEYS_FILE);
  const data = fs.existsSync(file) ? readKeyring(file) : { active: "", pairs: [] };
  const pair = newPair();
  writeKeyring(file, { active: pair.id, pairs: [...data.pairs, pair] });
  return pair.id;
}

/** Retires a pair: URLs signed with it stop working. The active pair cannot be retired. */
export function retireSigningKey(dataDir: string, id: string): void {
  const file = path.join(dataDir, SIGNING_KEYS_FILE);
  const data = readKeyring(file);
  const pair = data.pairs.find((p) => p.id === id);
  if (!pair) throw new Error(`No key pair "${id}" in ${file}.`);
  if (data.active === id) throw new Error(`"${id}" is the active key pair: rotate first, then retire it.`);
  pair.retiredAt ??= new Date().toISOString();
  writeKeyring(file, data);
}

export interface Keyring {
  sign(p: Omit<SignedParams, "keyPairId">): { keyPairId: string; signature: string };
  verify(query: Record<string, unknown>, target: { bucket: string; versionedKey: string }, nowSeconds?: number): Result<{ expires: number }>;
}

/**
 * Opens the keyring file (creating it with one pair on first start) and follows changes to it,
 * so a rotation or retirement made by the CLI takes effect without a restart.
 */
export function openKeyring(dataDir: string): Keyring {
  const file = path.join(dataDir, SIGNING_KEYS_FILE);
  if (!fs.existsSync(file)) rotateSigningKey(dataDir);
  let stamp = "";
  let data: KeyringData = readKeyring(file);
  const current = () => {
    const st = fs.statSync(file);
    const s = `${st.mtimeMs}:${st.size}:${st.ino}`;
    if (s !== stamp) {
      data = readKeyring(file);
      stamp = s;
    }
    return data;
  };
  current();
  const denied = (message: string) => fail("forbidden", `The signed URL is not valid: ${message}. Ask for a new one.`);
  return {
    sign(p) {
      const d = current();
      const pair = d.pairs.find((k) => k.id === d.active)!;
      return { keyPairId: pair.id, signature: signature(pair.secret, { ...p, keyPairId: pair.id }) };
    },
    verify(query, target, nowSeconds = Date.now() / 1000) {
      const { Expires: expiresRaw, "Key-Pair-Id": keyPairId, Signature: given } = query;
      if (typeof expiresRaw !== "string" || typeof keyPairId !== "string" || typeof given !== "string") {
        return denied("it needs exactly one Expires, Key-Pair-Id and Signature parameter");
      }
      // Canonical digits only: "0123" must not pass for "123" (any changed character is a 403).
      if (!/^[1-9]\d{0,11}$/.test(expiresRaw)) return denied("Expires is not a time in epoch seconds");
      const pair = current().pairs.find((k) => k.id === keyPairId && !k.retiredAt);
      if (!pair) return denied("its key pair is unknown or retired");
      const expires = Number(expiresRaw);
      const expected = Buffer.from(signature(pair.secret, { ...target, expires, keyPairId }));
      const actual = Buffer.from(given);
      // Compare the base64url text, not decoded bytes: two spellings of one value must not both pass.
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return denied("the signature does not match");
      if (nowSeconds >= expires) return denied("it has expired");
      return ok({ expires });
    },
  };
}
