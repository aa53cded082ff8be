import { expect, it } from "vitest";
import { createSessionSigner } from "./session-token";

const SECRET = "s".repeat(32);
const signer = createSessionSigner(SECRET, "pw", 1000);

it("accepts its own token until it expires", () => {
  const token = signer.issue(10_000, "nonce1");
  expect(signer.verify(token, 10_000)).toBe(true);
  expect(signer.verify(token, 10_999)).toBe(true);
  expect(signer.verify(token, 11_000)).toBe(false);
});

it("is accepted by another signer with the same secret and password, and no other", () => {
  const token = signer.issue(0, "n");
  expect(createSessionSigner(SECRET, "pw", 1000).verify(token, 1)).toBe(true);
  expect(createSessionSigner("t".repeat(32), "pw", 1000).verify(token, 1)).toBe(false);
  expect(createSessionSigner(SECRET, "new password", 1000).verify(token, 1)).toBe(false);
});

it("refuses tampered, truncated and malformed tokens", () => {
  const token = signer.issue(0, "n");
  const [expiry, nonce, mac] = token.split(".");
  const later = (parseInt(expiry, 36) + 1e9).toString(36);
  expect(signer.verify(`${later}.${nonce}.${mac}`, 1)).toBe(false);
  expect(signer.verify(`${expiry}.other.${mac}`, 1)).toBe(false);
  expect(signer.verify(`${expiry}.${nonce}.${mac.slice(1)}`, 1)).toBe(false);
  expect(signer.verify(`${expiry}.${nonce}`, 1)).toBe(false);
  expect(signer.verify(`${token}.x`, 1)).toBe(false);
  for (const bad of [undefined, "", "...", "x".repeat(500)]) expect(signer.verify(bad, 1)).toBe(false);
});

it("tells when a token it issued expires", () => {
  expect(signer.expiresAt(signer.issue(5000, "n"))).toBe(6000);
});
