/**
 * An upstream's error answer as the browser gets it, in hosted mode: the one error shape and
 * nothing else (decisions §6 and §9; review 55a #1: a hosted upstream's HTML traceback, its SQL
 * text and a `stack` field went to the browser as they were). Pure; forward.ts reads the body.
 *
 * - In the shape, 4xx, 503 or 507: its `message` kept (what to fix, or when to try again, in the
 *   upstream's words) unless it names internals (a path, SQL, a stack), every other field dropped.
 * - 429: 503 (the upstream limits Baseboard); a redirect: 502.
 * - Any other 5xx: its words left out (they may name its internals), said in ours.
 * - Not in the shape (an HTML page, other JSON, no body): said in ours, with the status.
 * - A status the shape has no code for (418): 502, as the gateway that could not read it.
 * Baseboard's own local service answers in the shape and in our words already: not passed here.
 */
import { defaultSubCode, type ErrorBody, type ErrorCode, errorBody, errorStatus } from "../../shared/errors";

const CODE_OF_STATUS = new Map<number, ErrorCode>(Object.entries(errorStatus).map(([code, status]) => [status, code as ErrorCode]));

/**
 * What no message for a person should hold (decisions §9): a stack, a traceback, an absolute file
 * path (the API's own /v0/ and /api/ paths aside), SQL. Review 56a #2: a 4xx in the shape passed
 * "syntax error at or near SELECT in SELECT secret FROM tenant_9" on as it was.
 */
const INTERNALS = [/\n\s*at\s/, /[\s(][^\s()]*\.[a-z]{1,4}:\d+(?::\d+)?\b/, /Traceback|Exception in|\.(?:py|java|rb|go|php):\d+/i, /(?:^|[\s"'(=:])\/(?!v0\/|api\/)[\w.-]+\/[\w./-]+/, /\b[A-Za-z]:\\/, /\bSELECT\b[\s\S]*\bFROM\b|\bINSERT\s+INTO\b|\bUPDATE\s+\S+\s+SET\b|\bDELETE\s+FROM\b|\b(?:relation|column|table)\s+"[^"]+"\s+does not exist/i,
  // Database engines' own words (review 57a #2): PostgreSQL's constraint and DETAIL texts, DuckDB's error classes.
  /violates (?:unique|foreign key|check|not-null) constraint|\bDETAIL:|\bHINT:|\b(?:Binder|Parser|Catalog|Conversion|Constraint|Invalid Input|Out of Range|Transaction|Internal) Error:|\bSQLSTATE\b|\bSQLITE_\w+/i,
];

export const namesInternals = (message: string) => INTERNALS.some((re) => re.test(message));

/** The status to send and the body, for an upstream answer of `status` with `raw` (at most 64 KB of it; undefined when longer). */
export function shapedUpstreamError(status: number, raw: Buffer | undefined, label: string): { status: number; body: ErrorBody } {
  // Too many requests: the upstream limits us, not the person; as a restart is (Retry-After kept).
  if (status === 429) return { status: 503, body: errorBody("unavailable", `${label} is limiting how often Baseboard may ask (HTTP 429); try again in a moment.`) };
  // A redirect is no answer an API call can use (review 56a #4: it went on with no body).
  if (status >= 300 && status < 400) return { status: 502, body: errorBody("bad_gateway", `${label} answered with a redirect (HTTP ${status}), which is no answer to this; check BASE_URL (its scheme, host and path).`) };
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
  if (inShape && ownWords && !namesInternals(b.message as string)) {
    // Its code as the status says (an `error` of its own, "rate_limited", is no code of the shape).
    const same = b.error === code;
    return { status, body: { error: code, subCode: same && b.subCode !== undefined ? (b.subCode as number) : defaultSubCode[code], message: b.message as string } };
  }
  if (inShape && ownWords) {
    return { status, body: errorBody(code, `${label} refused this (HTTP ${status}); its message is left out here, as it names its internals (a path, SQL or a stack). Check the request, or tell whoever runs it.`) };
  }
  if (status >= 500) {
    return { status, body: errorBody(code, `${label} failed with an error of its own (HTTP ${status}); what it said is left out here, as it may name its internals. Try again; if it goes on, tell whoever runs it.`) };
  }
  return { status, body: errorBody(code, `${label} refused this (HTTP ${status}) with an answer that is not an error Baseboard can read; what it said is left out.`) };
}
