/**
 * An upstream's error answer as the browser gets it, in hosted mode: the one error shape and
 * nothing else (decisions §6 and §9; review 55a #1: a hosted upstream's HTML traceback, its SQL
 * text and a `stack` field went to the browser as they were). Pure; forward.ts reads the body.
 *
 * - In the shape, 4xx, 503 or 507: its `error`, `subCode` and `message` kept (what to fix, or
 *   when to try again, in the upstream's words), every other field dropped.
 * - Any other 5xx: its words left out (they may name its internals), said in ours.
 * - Not in the shape (an HTML page, other JSON, no body): said in ours, with the status.
 * - A status the shape has no code for (418): 502, as the gateway that could not read it.
 * Baseboard's own local service answers in the shape and in our words already: not passed here.
 */
import { defaultSubCode, type ErrorBody, type ErrorCode, errorBody, errorStatus } from "../../shared/errors";

const CODE_OF_STATUS = new Map<number, ErrorCode>(Object.entries(errorStatus).map(([code, status]) => [status, code as ErrorCode]));

/** The status to send and the body, for an upstream answer of `status` with `raw` (at most 64 KB of it; undefined when longer). */
export function shapedUpstreamError(status: number, raw: Buffer | undefined, label: string): { status: number; body: ErrorBody } {
  const code = CODE_OF_STATUS.get(status);
  if (!code) return { status: 502, body: errorBody("bad_gateway", `${label} answered with HTTP ${status}, which is no answer Baseboard knows; what it said is left out. Try again; if it goes on, tell whoever runs it.`) };
  let parsed: unknown;
  try {
    parsed = raw === undefined ? undefined : JSON.parse(raw.toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const b = parsed as { error?: unknown; subCode?: unknown; message?: unknown } | undefined;
  const inShape = !!b && typeof b === "object" && typeof b.error === "string" && typeof b.message === "string" && (b.subCode === undefined || Number.isInteger(b.subCode));
  const ownWords = status < 500 || status === 503 || status === 507;
  if (inShape && ownWords) return { status, body: { error: b.error as string, subCode: (b.subCode as number | undefined) ?? defaultSubCode[code], message: b.message as string } };
  if (status >= 500) {
    return { status, body: errorBody(code, `${label} failed with an error of its own (HTTP ${status}); what it said is left out here, as it may name its internals. Try again; if it goes on, tell whoever runs it.`) };
  }
  return { status, body: errorBody(code, `${label} refused this (HTTP ${status}) with an answer that is not an error Baseboard can read; what it said is left out.`) };
}
