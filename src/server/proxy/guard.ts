/**
 * Who may talk to the proxy (decisions §8). A page on another site can make the browser send
 * requests here, and a rebinding DNS name can even make them look same-origin; the key must
 * never be attached for such a request. So: the Host must be one of our own names, and a
 * browser's request that changes anything must come from our own origin with our own header,
 * which a cross-site form or a no-cors fetch cannot add.
 */
import os from "node:os";
import type { IncomingHttpHeaders } from "node:http";
import { CLIENT_HEADER } from "../../shared/meta";
import { isLoopbackHost } from "./config";

const HOST_SHAPE = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/;

/** The names (as "name:port") the proxy answers to. */
export function ownHosts(opts: { host: string; port: number; allowedHosts: string[]; publicOrigin?: string }): Set<string> {
  const names = new Set(["127.0.0.1", "localhost", "[::1]"]);
  const bracket = (h: string) => (h.includes(":") && !h.startsWith("[") ? `[${h}]` : h);
  const wildcard = opts.host === "0.0.0.0" || opts.host === "::" || opts.host === "[::]";
  if (wildcard) {
    // Our own addresses are safe to answer to: rebinding needs a name the attacker controls.
    for (const list of Object.values(os.networkInterfaces())) {
      for (const a of list ?? []) names.add(bracket(a.address.toLowerCase().split("%")[0]));
    }
    names.add(os.hostname().toLowerCase());
  } else if (!isLoopbackHost(opts.host)) {
    names.add(bracket(opts.host.toLowerCase()));
  }
  const out = new Set<string>();
  for (const n of names) out.add(`${n}:${opts.port}`);
  for (const h of opts.allowedHosts) out.add(h.includes(":") && !h.endsWith("]") ? h : `${h}:${opts.port}`);
  if (opts.publicOrigin) {
    const u = new URL(opts.publicOrigin);
    out.add(`${u.hostname}:${u.port || (u.protocol === "https:" ? 443 : 80)}`);
  }
  return out;
}

/** The request's Host if it is one of ours (lower-cased, as sent), else undefined. */
export function checkHost(header: string | undefined, own: Set<string>): string | undefined {
  if (!header) return undefined;
  const host = header.trim().toLowerCase();
  if (host.length > 300 || !HOST_SHAPE.test(host)) return undefined;
  if (/:\d+$/.test(host) && !host.endsWith("]")) return own.has(host) ? host : undefined;
  return own.has(`${host}:80`) || own.has(`${host}:443`) ? host : undefined;
}

/** The origins a page of ours can have when it sends this request to `host`. */
export function ownOrigins(host: string, publicOrigin?: string): string[] {
  return publicOrigin ? [`http://${host}`, publicOrigin] : [`http://${host}`];
}

const single = (v: string | string[] | undefined) => (Array.isArray(v) ? undefined : v);

/**
 * Whether a form post (sign-in, set a password, sign out) may be taken: from a page of ours, or
 * not from a browser at all (neither Origin nor Sec-Fetch-Site, as `/api` lets through below), so
 * a script can sign in as the README says scripts use `/api` (review 38a #6: curl was told its
 * form "was sent from another site").
 */
export function formFromOwnPage(headers: IncomingHttpHeaders, host: string, publicOrigin?: string): boolean {
  if (headers.origin === undefined && headers["sec-fetch-site"] === undefined) return true;
  const origin = single(headers.origin);
  return origin !== undefined && ownOrigins(host, publicOrigin).includes(origin);
}

/**
 * Why a request under /api must be refused, or undefined when it may pass. `safe` is true for
 * GET and HEAD, which change nothing; everything else from a browser needs our origin and our
 * header.
 */
export function apiRequestRefusal(headers: IncomingHttpHeaders, host: string, safe: boolean, publicOrigin?: string): string | undefined {
  const site = single(headers["sec-fetch-site"]);
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    return "Requests from other sites are refused: open Baseboard itself.";
  }
  if (safe) return undefined;
  // Neither Origin nor Sec-Fetch-Site: not a browser (every current browser sends Origin on a
  // request that is not GET/HEAD, and Sec-Fetch-Site on all), so it cannot be a cross-site
  // request (decisions §8 refuses those): a script or curl on this machine may use the API.
  if (headers.origin === undefined && site === undefined) return undefined;
  const origin = single(headers.origin);
  if (!origin || !ownOrigins(host, publicOrigin).includes(origin)) {
    return "This request did not come from Baseboard's own page (its Origin is missing or another site's), so it was refused.";
  }
  if (single(headers[CLIENT_HEADER]) !== "1") {
    return `This request lacks the ${CLIENT_HEADER} header that Baseboard's page sends, so it was refused.`;
  }
  return undefined;
}
