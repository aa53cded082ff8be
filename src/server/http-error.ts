/**
 * One error class for the server side (service and proxy) that renders itself in the shape of
 * decisions §6, and one Fastify error handler that turns everything else into that shape too,
 * never with a stack trace.
 */
import type { FastifyError, FastifyInstance } from "fastify";
import { type ErrorCode, type Failure, errorBody, errorStatus } from "../shared/errors";
import { JSON_BODY_TOO_LARGE } from "../shared/limits";

/** Retry-After (seconds) of a failure saying a part is down or restarting (review 39a #8: none was sent). */
export const UNAVAILABLE_RETRY_S = 5;

export class HttpError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly subCode?: number,
    /** Seconds for a Retry-After header (503 unavailable: a full queue, a store that is down). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
  get status(): number {
    return errorStatus[this.code];
  }
  toBody() {
    return errorBody(this.code, this.message, this.subCode);
  }
  /** A failure as answered; "unavailable" (a part down or restarting) says when to retry, as decisions §9 asks. */
  static from(failure: Failure): HttpError {
    return new HttpError(failure.code, failure.message, failure.subCode, failure.code === "unavailable" ? UNAVAILABLE_RETRY_S : undefined);
  }
}

export const badRequest = (message: string) => new HttpError("validation_error", message);
export const unauthorized = (message = "The API key is invalid or missing: send it in the x-api-key header.") =>
  new HttpError("auth_error", message, 4);
export const forbidden = (message: string) => new HttpError("forbidden", message);
export const notFound = (message: string) => new HttpError("not_found", message);
export const conflict = (message: string) => new HttpError("conflict", message);

/** Fastify's own error codes that are the client's fault, mapped to our codes. */
function fromFastify(err: FastifyError): HttpError | undefined {
  switch (err.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new HttpError("payload_too_large", JSON_BODY_TOO_LARGE);
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return badRequest("The request body is not as long as its Content-Length says.");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return badRequest("Send the body as application/json.");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return badRequest("The request body is empty: send a JSON object.");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return badRequest(`The request body is not valid JSON: ${err.message}`);
  }
  if (err instanceof SyntaxError || err.statusCode === 400) return badRequest(`The request body is not valid JSON: ${err.message}`);
  if (err.statusCode === 413) return new HttpError("payload_too_large", "The request body is too large.");
  if (err.statusCode === 415) return badRequest("Unsupported Content-Type.");
  return undefined;
}

/**
 * A write the disk refused (issue 9.5), for any write that no module mapped itself (storage and
 * the engines do, with their own wording): the problem named, never the file's path.
 */
export function fromDiskError(err: unknown): HttpError | undefined {
  switch ((err as NodeJS.ErrnoException | undefined)?.code) {
    case "ENOSPC":
    case "EDQUOT":
    case "EFBIG":
      return new HttpError("insufficient_storage", "The service's disk is full; nothing was written. Free some space and retry.");
    case "EROFS":
    case "EACCES":
    case "EPERM":
      return new HttpError("unavailable", "The service's disk is read-only or not writable; nothing was written. Try again once it is fixed.", undefined, 60);
    default:
      return undefined;
  }
}

/**
 * `translate` maps the errors of one server's own back ends (the service's database engine)
 * that no route caught, so they too answer in the one shape rather than as a 500.
 */
export function installErrorHandler(app: FastifyInstance, translate?: (err: unknown) => HttpError | undefined): void {
  app.setErrorHandler((err: FastifyError | HttpError, request, reply) => {
    const known = err instanceof HttpError ? err : (translate?.(err) ?? fromFastify(err as FastifyError) ?? fromDiskError(err));
    if (known) {
      if (known instanceof HttpError && known.retryAfter !== undefined) reply.header("retry-after", String(known.retryAfter));
      reply.code(known.status).send(known.toBody());
      return;
    }
    request.log.error({ err }, "unhandled error");
    reply.code(500).send(errorBody("internal_error", "Something went wrong inside the server; the request was not applied."));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody("not_found", `No endpoint ${request.method} ${request.url.split("?")[0]}.`));
  });
}
