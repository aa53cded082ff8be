/**
 * GET /api/exists/v0/storage/public/{bucket}/{key} → {"exists": true|false}: whether a key has a
 * version, asked with a HEAD upstream. The app asks it before each upload; asking the file path
 * itself would answer 404 for every new key, and Chromium prints each 404 in the console as an
 * error ("Failed to load resource"), which a user reads as something broken. Here a missing key
 * is a plain 200. The path passes the same allow list as every forwarded request.
 */
import { errorBody, type ErrorBody } from "../../shared/errors";
import { type Upstream, UpstreamFailure } from "./forward";
import { matchApiRoute } from "./routes";

export const EXISTS_PREFIX = "/api/exists/";

const statusError: Record<number, ErrorBody> = {
  401: errorBody("auth_error", "The service refused the key: check API_KEY.", 4),
  403: errorBody("forbidden", "The service refused to tell: the bucket is forbidden, or this address is not allowed."),
};

export async function objectExists(upstream: Upstream, rawUrl: string): Promise<{ status: number; body: unknown }> {
  const route = matchApiRoute("HEAD", `/api/${rawUrl.slice(EXISTS_PREFIX.length)}`);
  if (route.kind !== "forward" || route.endpoint !== "get-file") {
    return { status: 404, body: errorBody("not_found", "Ask /api/exists/v0/storage/public/{bucket}/{key}.") };
  }
  let answer: { status: number };
  try {
    answer = await upstream.getJson(route.upstreamPath, "HEAD");
  } catch (e) {
    if (e instanceof UpstreamFailure) return { status: e.status, body: e.toBody() };
    throw e;
  }
  if (answer.status === 404) return { status: 200, body: { exists: false } };
  // 416: an existing empty file asked for a range; 304: cached. Both mean it is there.
  if (answer.status < 400 || answer.status === 416) return { status: 200, body: { exists: true } };
  const known = statusError[answer.status];
  if (known) return { status: answer.status, body: known };
  const code = answer.status >= 500 ? "internal_error" : "validation_error";
  return { status: answer.status >= 500 ? 502 : answer.status, body: errorBody(code, `The service answered HEAD of this file with HTTP ${answer.status}.`) };
}
