/**
 * What Node's HTTP parser refuses before any route runs (headers too large, a request line too
 * long, headers that never finish arriving, bytes that are not HTTP), answered in the one error
 * shape by the proxy and the service alike, on the raw socket since no response object exists.
 */
import type { Duplex } from "node:stream";
import { type ErrorCode, errorBody, errorStatus } from "../shared/errors";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  414: "URI Too Long",
  431: "Request Header Fields Too Large",
};

const LONG_REQUEST_LINE = 8 * 1024;

/** The status, code and message for a parser error; pure. `rawPacket` is what had arrived. */
export function clientErrorAnswer(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): { code: ErrorCode; message: string } {
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return { code: "request_timeout", message: "The request's headers did not arrive in time. Send the request again." };
  }
  if (err.code === "HPE_HEADER_OVERFLOW") {
    // Node counts the request line within the header limit: a request line that alone takes
    // half of it means the URL is the culprit.
    const packet = err.rawPacket;
    const lineEnd = packet ? packet.indexOf("\n") : -1;
    const lineLength = packet ? (lineEnd < 0 ? packet.length : lineEnd) : 0;
    if (lineLength >= LONG_REQUEST_LINE) {
      return { code: "uri_too_long", message: "The request's URL is too long (the request line and headers may take at most 16 KiB)." };
    }
    return { code: "headers_too_large", message: "The request's headers are too large (at most 16 KiB in all)." };
  }
  return { code: "validation_error", message: "The request is not valid HTTP." };
}

/** Writes the answer on the socket and closes it; a socket already unwritable is just destroyed. */
export function answerClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  // An answer already under way on this socket (a later pipelined request failed to parse): cut it.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { code, message } = clientErrorAnswer(err);
  const status = errorStatus[code];
  const body = JSON.stringify(errorBody(code, message));
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? "Bad Request"}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `cache-control: no-store\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
