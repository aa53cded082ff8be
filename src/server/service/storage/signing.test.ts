import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SIGNING_KEYS_FILE, openKeyring, retireSigningKey, rotateSigningKey } from "./signing";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bb-sign-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("keyring", () => {
  const keyring = openKeyring(dir);
  const target = { bucket: "public-assets", versionedKey: "v1700000000000/a/b.png" };
  const expires = 2_000_000_000;
  const signed = keyring.sign({ ...target, expires });
  const good = { Expires: String(expires), "Key-Pair-Id": signed.keyPairId, Signature: signed.signature };
  const now = 1_900_000_000;

  it("stores key pairs with mode 0600", () => {
    expect(fs.statSync(path.join(dir, SIGNING_KEYS_FILE)).mode & 0o777).toBe(0o600);
  });

  it("verifies what it signed", () => {
    expect(keyring.verify(good, target, now)).toEqual({ ok: true, value: { expires } });
  });

  const flip = (s: string, i = s.length - 1) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
  it.each([
    ["bucket", good, { ...target, bucket: "public-assetz" }, /does not match/],
    ["key", good, { ...target, versionedKey: "v1700000000000/a/c.png" }, /does not match/],
    ["version", good, { ...target, versionedKey: "v1700000000001/a/b.png" }, /does not match/],
    ["Expires", { ...good, Expires: String(expires + 1) }, target, /does not match/],
    ["Expires leading zero", { ...good, Expires: `0${expires}` }, target, /does not match|epoch/],
    ["Expires not a number", { ...good, Expires: "soon" }, target, /epoch seconds/],
    ["Signature last char", { ...good, Signature: flip(signed.signature) }, target, /does not match/],
    ["Signature first char", { ...good, Signature: flip(signed.signature, 0) }, target, /does not match/],
    ["Signature shortened", { ...good, Signature: signed.signature.slice(1) }, target, /does not match/],
    ["Signature padded", { ...good, Signature: `${signed.signature}=` }, target, /does not match/],
    ["Key-Pair-Id", { ...good, "Key-Pair-Id": flip(signed.keyPairId) }, target, /unknown or retired/],
    ["missing Signature", { Expires: good.Expires, "Key-Pair-Id": good["Key-Pair-Id"] }, target, /exactly one/],
    ["repeated Expires", { ...good, Expires: [good.Expires, good.Expires] }, target, /exactly one/],
  ])("refuses a tampered %s with a 403", (_what, query, t, message) => {
    const r = keyring.verify(query as Record<string, unknown>, t, now);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("forbidden");
      expect(r.error.message).toMatch(message);
    }
  });

  it("refuses at and after Expires", () => {
    expect(keyring.verify(good, target, expires).ok).toBe(false);
    expect(keyring.verify(good, target, expires + 1).ok).toBe(false);
    expect(keyring.verify(good, target, expires - 1).ok).toBe(true);
  });

  it("rotates: the old pair verifies until retired, the new one signs", () => {
    const newId = rotateSigningKey(dir);
    expect(newId).not.toBe(signed.keyPairId);
    expect(keyring.verify(good, target, now).ok).toBe(true);
    const fresh = keyring.sign({ ...target, expires });
    expect(fresh.keyPairId).toBe(newId);
    expect(() => retireSigningKey(dir, newId)).toThrow(/active/);
    retireSigningKey(dir, signed.keyPairId);
    const r = keyring.verify(good, target, now);
    expect(r.ok).toBe(false);
    expect(keyring.verify({ Expires: String(expires), "Key-Pair-Id": fresh.keyPairId, Signature: fresh.signature }, target, now).ok).toBe(true);
  });
});
