/**
 * The one error shape, end to end (decisions §6): the service answers every failure with
 * `{error, subCode, message}`, the proxy passes it through (and uses it for its own 502/504),
 * and the web client turns it into a typed ApiError.
 */
import { z } from "zod";

export const errorStatus = {
  validation_error: 400,
  auth_error: 401,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  range_not_satisfiable: 416,
  too_many_requests: 429,
  headers_too_large: 431,
  internal_error: 500,
  bad_gateway: 502,
  unavailable: 503,
  gateway_timeout: 504,
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/**
 * subCode 4 is the interface's "invalid or missing key"; the rest are ours, one per code (10 is
 * the proxy's "log in first", see meta.ts). 408/503/507 are decisions §9; 414/431 are what the
 * HTTP servers refuse before any route runs, still in this shape.
 */
export const defaultSubCode: Record<ErrorCode, number> = {
  validation_error: 1,
  auth_error: 4,
  forbidden: 3,
  not_found: 2,
  request_timeout: 11,
  conflict: 5,
  payload_too_large: 6,
  uri_too_long: 14,
  range_not_satisfiable: 7,
  too_many_requests: 16,
  headers_too_large: 15,
  internal_error: 0,
  bad_gateway: 8,
  unavailable: 12,
  gateway_timeout: 9,
  insufficient_storage: 13,
};

export const errorBodySchema = z.object({
  error: z.string(),
  subCode: z.number().int(),
  message: z.string(),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;

export function errorBody(code: ErrorCode, message: string, subCode = defaultSubCode[code]): ErrorBody {
  return { error: code, subCode, message };
}

/** Errors as values: pure modules return a Result instead of throwing. */
export type Result<T, E = Failure> = { ok: true; value: T } | { ok: false; error: E };

export interface Failure {
  code: ErrorCode;
  message: string;
  subCode?: number;
}

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const fail = (code: ErrorCode, message: string, subCode?: number): Result<never> => ({
  ok: false,
  error: { code, message, subCode },
});
