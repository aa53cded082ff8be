/**
 * The browser's only way to the service: same-origin calls to the proxy under /api, which adds
 * the API key. Every failure becomes an ApiError carrying the service's {error, subCode, message}.
 */
import { type ErrorBody, errorBodySchema } from "../shared/errors";
import { TAB_HEADER, TAB_ID } from "./team/live/tab-id";
import { sessionEnded } from "./team/session-ended";
import { isSignInRequired } from "./team/session-ended.utils";

/** The app's own request header: the proxy refuses non-GET /api calls without it (CSRF). */
export const CLIENT_HEADER = "x-baseboard-client";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }
  get code(): string {
    return this.body.error;
  }
  /** The proxy's "sign in first": this tab's session has ended (the app goes to sign in). */
  get signInRequired(): boolean {
    return isSignInRequired(this.status, this.body);
  }
}

export interface ApiInit extends Omit<RequestInit, "body"> {
  json?: unknown;
  body?: BodyInit;
}

export async function apiFetch(path: string, init: ApiInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set(CLIENT_HEADER, "1");
  // Which tab made a change: the live stream tells the others, and this tab skips its own echo.
  headers.set(TAB_HEADER, TAB_ID);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers, body, credentials: "same-origin" });
  } catch (e) {
    throw new ApiError(0, {
      error: "network_error",
      subCode: 0,
      message: `Could not reach the Baseboard server: ${(e as Error).message}. Is it still running?`,
    });
  }
  if (!res.ok && res.status !== 304) {
    const err = await toApiError(res);
    if (err.signInRequired) sessionEnded(err.message);
    throw err;
  }
  return res;
}

export async function api<T>(path: string, init: ApiInit = {}): Promise<T> {
  const res = await apiFetch(path, init);
  return (await res.json()) as T;
}

export async function toApiError(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => "");
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) return new ApiError(res.status, parsed.data);
  } catch {
    // not JSON: fall through
  }
  return new ApiError(res.status, {
    error: res.status >= 500 ? "internal_error" : "http_error",
    subCode: 0,
    message: `HTTP ${res.status} ${res.statusText}${text ? `: ${text.slice(0, 200)}` : ""}`,
  });
}
