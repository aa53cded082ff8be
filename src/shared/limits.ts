/**
 * Bounds both sides must agree on: the proxy reads a JSON body whole before it takes an upstream
 * connection, so it refuses past the same limit the service would (with the same 413).
 */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** The service's own message for it, so the browser sees one wording whichever side refused. */
export const JSON_BODY_TOO_LARGE = "The request body is larger than the 1 MiB limit.";
