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
  conflict: 409,
  payload_too_large: 413,
  range_not_satisfiable: 416,
  internal_error: 500,
  bad_gateway: 502,
  gateway_timeout: 504,
  request_timeout: 408,
  unavailable: 503,
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** subCode 4 is the interface's "invalid or missing key"; the rest are ours, one per code. */
export const defaultSubCode: Record<ErrorCode, number> = {
  validation_error: 1,
  auth_error: 4,
  forbidden: 3,
  not_found: 2,
  conflict: 5,
  payload_too_large: 6,
  range_not_satisfiable: 7,
  internal_error: 0,
  bad_gateway: 8,
  gateway_timeout: 9,
  request_timeout: 11,
  unavailable: 12,
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
