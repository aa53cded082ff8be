/**
 * Which headers cross the proxy. Both directions use an allow list rather than a deny list:
 * the browser's cookies, Authorization, Origin and any x-api-key never reach the upstream, and
 * the upstream's Set-Cookie, CORS or hop-by-hop headers never reach the browser.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";

/** Request headers passed to the upstream (w and h are the resize parameters of §7). */
const REQUEST_ALLOW = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "client-type",
  "content-length",
  "content-type",
  "if-match",
  "if-modified-since",
  "if-none-match",
  "if-range",
  "if-unmodified-since",
  "range",
  "user-agent",
  "w",
  "h",
]);

/** Response headers passed to the browser. */
const RESPONSE_ALLOW = new Set([
  "accept-ranges",
  "age",
  "cache-control",
  "content-disposition",
  "content-encoding",
  "content-language",
  "content-length",
  "content-range",
  "content-type",
  "date",
  "etag",
  "expires",
  "last-modified",
  "retry-after",
  "vary",
  "x-matched-count",
]);

/** Hop-by-hop headers (RFC 9110 §7.6.1) and any header the Connection header names. */
function hopByHop(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Set<string> {
  const names = new Set(["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"]);
  const conn = headers.connection;
  for (const v of Array.isArray(conn) ? conn : conn ? [conn] : []) {
    for (const n of v.split(",")) names.add(n.trim().toLowerCase());
  }
  return names;
}

export function upstreamRequestHeaders(incoming: IncomingHttpHeaders, apiKey: string | undefined): Record<string, string> {
  const drop = hopByHop(incoming);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || !REQUEST_ALLOW.has(name) || drop.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  if (apiKey) out["x-api-key"] = apiKey;
  return out;
}

export function browserResponseHeaders(upstream: Record<string, string | string[] | undefined>): OutgoingHttpHeaders {
  const drop = hopByHop(upstream);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream)) {
    const lower = name.toLowerCase();
    if (value === undefined || !RESPONSE_ALLOW.has(lower) || drop.has(lower)) continue;
    out[lower] = value;
  }
  return out;
}

/**
 * Sent on every /api answer: other sites may not embed our files or JSON (CORP), and a file
 * uploaded as HTML or SVG and opened from /api cannot run script in the app's origin (CSP
 * sandbox), which would otherwise let it call the API through the proxy with the key.
 */
export const API_SECURITY_HEADERS: OutgoingHttpHeaders = {
  "cross-origin-resource-policy": "same-origin",
  "x-content-type-options": "nosniff",
  "content-security-policy": "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'",
  "referrer-policy": "no-referrer",
};

/**
 * Sent on the app's pages (the built app and the login page; not Vite's dev pages, which need
 * inline scripts). Scripts only from our own files: an injected inline script would otherwise
 * have the proxy, and so the key's powers, at its disposal.
 */
export const PAGE_SECURITY_HEADERS: OutgoingHttpHeaders = {
  "content-security-policy": "script-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
};
