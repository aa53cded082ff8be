/**
 * A black-box client for the conformance tests, written from the interface and decisions.md
 * alone: raw HTTP (node:http, so headers such as Content-Type are exactly what the test says),
 * and one check of the error shape of decisions §6.
 */
import http from "node:http";
import { expect } from "vitest";
import type { TestService } from "../../testing/test-service";

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: any;
}

export interface SendOptions {
  /** A raw string is sent as is; anything else is JSON.stringify'd. Omitted = no body. */
  body?: unknown;
  /** Headers; x-api-key defaults to the service's key, content-type to JSON when there is a body. */
  headers?: Record<string, string | undefined>;
}

export function send(svc: TestService, method: string, path: string, opts: SendOptions = {}): Promise<Reply> {
  const url = new URL(svc.url);
  const headers: Record<string, string> = {};
  const given = { "x-api-key": svc.key, ...(opts.body !== undefined ? { "content-type": "application/json" } : {}), ...opts.headers };
  for (const [k, v] of Object.entries(given)) if (v !== undefined) headers[k] = v;
  const payload = opts.body === undefined ? undefined : typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
  if (payload !== undefined) headers["content-length"] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

export const post = (svc: TestService, path: string, body?: unknown, headers?: SendOptions["headers"]) =>
  send(svc, "POST", path, { body, headers });

const codeFor: Record<number, string> = {
  400: "validation_error",
  401: "auth_error",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  500: "internal_error",
};

/** Decisions §6: exactly {error, subCode, message}, the status's code, JSON, no stack trace. */
export function expectError(reply: Reply, status: number, message?: RegExp): void {
  expect(reply.status, reply.text.slice(0, 300)).toBe(status);
  expect(reply.headers["content-type"]).toMatch(/^application\/json/);
  expect(Object.keys(reply.body ?? {}).sort()).toEqual(["error", "message", "subCode"]);
  expect(reply.body.error).toBe(codeFor[status]);
  expect(Number.isInteger(reply.body.subCode)).toBe(true);
  expect(typeof reply.body.message).toBe("string");
  expect(reply.body.message.length).toBeGreaterThan(0);
  expect(reply.body.message).not.toMatch(/\n\s+at |\.ts:\d+|node_modules/);
  if (message) expect(reply.body.message).toMatch(message);
}

/** A successful query: {items: [...], count: integer}. */
export function expectItems(reply: Reply): { items: Record<string, unknown>[]; count: number } {
  expect(reply.status, reply.text.slice(0, 300)).toBe(200);
  expect(Object.keys(reply.body).sort()).toEqual(["count", "items"]);
  expect(Array.isArray(reply.body.items)).toBe(true);
  expect(Number.isInteger(reply.body.count)).toBe(true);
  return reply.body;
}

export const cond = (key: string, operator: string, value?: unknown, extra: Record<string, unknown> = {}) => ({
  key,
  operator,
  ...(value === undefined ? {} : { value }),
  ...extra,
});

/** Code-point order (not UTF-16 code units, which is what String#< compares). */
export function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
