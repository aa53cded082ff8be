import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Keyring, SIGNING_KEYS_FILE, openKeyring, retireSigningKey, rotateSigningKey } from "./signing";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-sign-"));
const file = path.join(dir, SIGNING_KEYS_FILE);
const opened: Keyring[] = [];
afterAll(() => {
  for (const k of opened) k.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("keyring", () => {
  let keyring: Keyring;
  const target = { bucket: "public-assets", versionedKey: "v1700000000000/a/b.png" };
  const expires = 2_000_000_000;
  let signed: { keyPairId: string; signature: string };
  let good: Record<string, string>;
  const now = 1_900_000_000;
  beforeAll(async () => {
    keyring = await openKeyring(file);
    opened.push(keyring);
    signed = await keyring.sign({ ...target, expires });
    good = { Expires: String(expires), "Key-Pair-Id": signed.keyPairId, Signature: signed.signature };
  });

  it("stores key pairs with mode 0600", () => {
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("verifies what it signed", async () => {
    expect(await keyring.verify(good, target, now)).toEqual({ ok: true, value: { expires } });
  });

  const flip = (s: string, i = s.length - 1) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
  const cases: [string, () => Record<string, unknown>, typeof target, RegExp][] = [
    ["bucket", () => good, { ...target, bucket: "public-assetz" }, /does not match/],
    ["key", () => (good), { ...target, versionedKey: "v1700000000000/a/c.png" }, /does not match/],
    ["version", () => (good), { ...target, versionedKey: "v1700000000001/a/b.png" }, /does not match/],
    ["Expires", () => ({ ...good, Expires: String(expires + 1) }), target, /does not match/],
    ["Expires leading zero", () => ({ ...good, Expires: `0${expires}` }), target, /does not match|epoch/],
    ["Expires not a number", () => ({ ...good, Expires: "soon" }), target, /epoch seconds/],
    ["Signature last char", () => ({ ...good, Signature: flip(signed.signature) }), target, /does not match/],
    ["Signature first char", () => ({ ...good, Signature: flip(signed.signature, 0) }), target, /does not match/],
    ["Signature shortened", () => ({ ...good, Signature: signed.signature.slice(1) }), target, /does not match/],
    ["Signature padded", () => ({ ...good, Signature: `${signed.signature}=` }), target, /does not match/],
    ["Key-Pair-Id", () => ({ ...good, "Key-Pair-Id": flip(signed.keyPairId) }), target, /unknown or retired/],
    ["missing Signature", () => ({ Expires: good.Expires, "Key-Pair-Id": good["Key-Pair-Id"] }), target, /exactly one/],
    ["repeated Expires", () => ({ ...good, Expires: [good.Expires, good.Expires] }), target, /exactly one/],
  ];
  it.each(cases)("refuses a tampered %s with a 403", async (_what, query, t, message) => {
    const r = await keyring.verify(query(), t, now);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("forbidden");
      expect(r.error.message).toMatch(message);
    }
  });

  it("refuses at and after Expires", async () => {
    expect((await keyring.verify(good, target, expires)).ok).toBe(false);
    expect((await keyring.verify(good, target, expires + 1)).ok).toBe(false);
    expect((await keyring.verify(good, target, expires - 1)).ok).toBe(true);
  });

  it("signs and verifies without any synchronous file system call (issue 9.7)", async () => {
    const spies = (["statSync", "readFileSync", "existsSync", "openSync", "readSync", "fstatSync"] as const).map((name) => vi.spyOn(fs, name));
    try {
      for (let i = 0; i < 50; i++) {
        const s2 = await keyring.sign({ ...target, expires: expires + i });
        expect((await keyring.verify({ Expires: String(expires + i), "Key-Pair-Id": s2.keyPairId, Signature: s2.signature }, target, now)).ok).toBe(true);
        expect((await keyring.verify({ ...good, "Key-Pair-Id": "kp_unknown" }, target, now)).ok).toBe(false);
      }
      await new Promise((r) => setTimeout(r, 1100));
      await keyring.verify(good, target, now);
      for (const spy of spies) expect(spy, spy.getMockName()).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("rotates: the old pair verifies until retired, the new one signs; another instance on the file sees both", async () => {
    const other = await openKeyring(file);
    opened.push(other);
    const newId = rotateSigningKey(file);
    expect(newId).not.toBe(signed.keyPairId);
    expect((await keyring.verify(good, target, now)).ok).toBe(true);
    const seen = async (k: Keyring, id: string) => {
      for (let i = 0; i < 40 && (await k.sign({ ...target, expires })).keyPairId !== id; i++) await new Promise((r) => setTimeout(r, 50));
      return (await k.sign({ ...target, expires })).keyPairId;
    };
    expect(await seen(keyring, newId)).toBe(newId);
    expect(await seen(other, newId)).toBe(newId);
    const fresh = await keyring.sign({ ...target, expires });
    const freshQuery = { Expires: String(expires), "Key-Pair-Id": fresh.keyPairId, Signature: fresh.signature };
    expect((await other.verify(freshQuery, target, now)).ok).toBe(true);
    expect(() => retireSigningKey(file, newId)).toThrow(/active/);
    retireSigningKey(file, signed.keyPairId);
    const refused = async (k: Keyring) => {
      for (let i = 0; i < 40 && (await k.verify(good, target, now)).ok; i++) await new Promise((r) => setTimeout(r, 50));
      return !(await k.verify(good, target, now)).ok;
    };
    expect(await refused(keyring)).toBe(true);
    expect(await refused(other)).toBe(true);
    expect((await keyring.verify(freshQuery, target, now)).ok).toBe(true);
  });
});
