/**
 * API-key check (interface §5, decisions §1): constant-time, and aware of keys scoped to one
 * table. Every key is compared, hit or miss, so timing tells nothing about which one matched.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { unauthorized } from "../http-error";
import type { ApiKeyEntry, ApiKeyScope } from "./config";

export type KeyCheck = { kind: "missing" } | { kind: "invalid" } | { kind: "valid"; scope?: ApiKeyScope };

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

export function createKeyChecker(keys: ApiKeyEntry[]) {
  const stored = keys.map((k) => ({ hash: digest(k.key), scope: k.scope }));
  return function checkKey(header: string | string[] | undefined): KeyCheck {
    if (header === undefined || header === "") return { kind: "missing" };
    const given = digest(Array.isArray(header) ? header.join(",") : header);
    let match: (typeof stored)[number] | undefined;
    for (const k of stored) if (timingSafeEqual(k.hash, given) && !match) match = k;
    return match ? { kind: "valid", scope: match.scope } : { kind: "invalid" };
  };
}

export type KeyChecker = ReturnType<typeof createKeyChecker>;

/** Whether a key may touch this table: unscoped keys may touch every table. */
export function scopeAllows(scope: ApiKeyScope | undefined, databaseId: string, tableSlug: string): boolean {
  return !scope || (scope.databaseId === databaseId && scope.tableSlug === tableSlug);
}

/** The request's key when valid, else the 401 (checked before any body is read). */
export function requireKey(request: { apiKey: KeyCheck }): Extract<KeyCheck, { kind: "valid" }> {
  if (request.apiKey.kind !== "valid") throw unauthorized();
  return request.apiKey;
}
