/**
 * SERVICE_PROFILE=interface (decisions §9): the local service answering exactly as the hosted
 * interface does, so that the web app's hosted mode can be tested against something real.
 * One gate in front of every route: the extensions (`fields`, `meta`, list, delete, import, jobs, search, versions, restore, resumable uploads, signing many) are
 * 404 as on an upstream that never had them; a filter operator other than `equal` is a 400;
 * `expiresIn` is dropped so a signed URL gets the interface's one hour, and an update's
 * before-images header (the audit trail's extension) is ignored.
 */
import { BEFORE_IMAGES_HEADER } from "../../shared/record-writes";
import type { FastifyInstance } from "fastify";
import { badRequest, notFound } from "../http-error";

export type ServiceProfile = "full" | "interface";

export function parseServiceProfile(raw: string | undefined): ServiceProfile {
  if (raw === undefined || raw === "" || raw === "full") return "full";
  if (raw === "interface") return "interface";
  throw new Error(`SERVICE_PROFILE must be "full" or "interface" (got ${JSON.stringify(raw)}).`);
}

/** The extension endpoints, matched on the path alone (the method does not matter: none exists). */
const EXTENSION_PATHS: RegExp[] = [
  /^\/v0\/meta\/?$/,
  /^\/v0\/record\/[^/]+\/[^/]+\/(fields|import|insert|delete|distinct)\/?$/,
  /^\/v0\/storage\/list(\/|$)/,
  /^\/v0\/storage\/jobs(\/|$)/,
  /^\/v0\/storage\/search(\/|$)/,
  /^\/v0\/storage\/(versions|restore)(\/|$)/,
  /^\/v0\/storage\/uploads(\/|$)/,
  /^\/v0\/events\/?$/,
];

export function isExtensionRequest(method: string, pathname: string): boolean {
  if (method === "DELETE" && pathname.startsWith("/v0/storage/object/")) return true;
  // Many signed URLs at once (signMany): a POST on the bucket, where endpoint 5 GETs a key.
  if (method === "POST" && /^\/v0\/storage\/url\/sign\/[^/]+\/?$/.test(pathname)) return true;
  return EXTENSION_PATHS.some((re) => re.test(pathname));
}

/**
 * The first operator in a filter tree that is not `equal`, if any. Iterative, since nesting
 * depth is unlimited (decisions §4); shapes it does not understand are left to the real
 * validation behind it.
 */
export function firstNonInterfaceOperator(filter: unknown): string | undefined {
  const stack: unknown[] = [filter];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      for (const child of node) stack.push(child);
      continue;
    }
    const o = node as Record<string, unknown>;
    if ("operator" in o && o.operator !== "equal") return String(o.operator);
    if (Array.isArray(o.and)) stack.push(o.and);
    if (Array.isArray(o.or)) stack.push(o.or);
  }
  return undefined;
}

export function registerServiceProfile(app: FastifyInstance, profile: ServiceProfile): void {
  if (profile === "full") return;
  app.addHook("onRequest", async (request) => {
    const pathname = request.url.split("?")[0] ?? "";
    if (isExtensionRequest(request.method, pathname)) {
      throw notFound(`No endpoint ${request.method} ${pathname}.`);
    }
    if (pathname.startsWith("/v0/storage/url/sign/") && request.query && typeof request.query === "object") {
      delete (request.query as Record<string, unknown>).expiresIn;
    }
    // The before-images an update can answer are an extension too: the header is ignored.
    delete request.headers[BEFORE_IMAGES_HEADER];
  });
  app.addHook("preHandler", async (request) => {
    if (request.method !== "POST" || !request.url.startsWith("/v0/") || !request.url.includes("/record/")) return;
    const body = request.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== "object") return;
    const op = firstNonInterfaceOperator([body.filter, body.addtionalFilter]);
    if (op !== undefined) {
      throw badRequest(`Operator "${op.slice(0, 80)}" is not supported: this service offers only "equal".`);
    }
  });
}
