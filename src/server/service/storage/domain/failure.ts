/**
 * How the storage domain refuses (issue 23.2): a failure with one of the shared codes
 * (src/shared/errors.ts), thrown from deep in a stream or a loop and turned into an answer by
 * the one translator in routes/http-failures.ts. The domain never builds an HTTP answer itself.
 */
import type { ErrorCode, Failure } from "../../../../shared/errors";

export class StorageFailure extends Error implements Failure {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly subCode?: number,
    /** Seconds the caller should wait before trying again (a full queue, a store that is down). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
  static from(failure: Failure): StorageFailure {
    return new StorageFailure(failure.code, failure.message, failure.subCode);
  }
}

export const invalid = (message: string) => new StorageFailure("validation_error", message);
export const missing = (message: string) => new StorageFailure("not_found", message);
export const noKey = () => new StorageFailure("auth_error", "The API key is invalid or missing: send it in the x-api-key header.", 4);
