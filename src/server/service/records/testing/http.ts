/** Small helpers for the Record HTTP tests (real service, real HTTP). */
import type { TestService } from "../../testing/test-service";

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

/** POSTs a JSON value, or a raw string as-is (for bodies JSON.stringify cannot build). */
export async function post(svc: TestService, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const init: RequestInit = { method: "POST", headers: { "content-type": "application/json", ...headers } };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  const res = await svc.call(path, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export async function get(svc: TestService, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await svc.call(path, { headers });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** `n` levels of {"op":[…]} around `inner`, as a JSON string (no recursion anywhere). */
export function nestJson(n: number, inner: string, op: "and" | "or" = "and"): string {
  return `{"${op}":[`.repeat(n) + inner + "]}".repeat(n);
}

/**
 * Alternating or/and groups of two, `n` levels deep, so nothing can be flattened. With a
 * never-true `orOther` and an always-true `andOther` the whole filter matches what `cond` does.
 */
export function alternatingJson(n: number, cond: string, orOther: string, andOther: string): string {
  let f = cond;
  for (let i = 0; i < n; i++) f = i % 2 ? `{"and":[${f},${andOther}]}` : `{"or":[${f},${orOther}]}`;
  return f;
}

export const EMP = "/v0/record/demo/employees";
