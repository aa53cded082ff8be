import type { IncomingMessage } from "node:http";
import { bodyTimeoutMessage, watchBody } from "../body-watch";

/**
 * A sign-in form as read: its fields (none kept when it was larger than the limit or stopped
 * arriving), `tooLarge`, or `timedOut` (the words for the 408).
 */
export interface FormRead {
  form: URLSearchParams;
  tooLarge?: true;
  timedOut?: string;
}

/**
 * Reads an urlencoded form of at most `limit` bytes. Past the limit the rest is read and thrown
 * away rather than the request destroyed: the page can still answer (413, `connection: close`)
 * and the request still has its address for the attempt limits and the audit trail. (Leaving a
 * `for await` early destroyed the socket: the next `req.socket.remoteAddress` threw, a 500.)
 * A form that sends nothing for `idleMs`, or is not whole within it (a few hundred bytes need
 * no longer), is given up (review 34a #4: one that stopped held its connection for ever, before
 * any sign-in): the caller answers 408 and closes the connection.
 */
export function readForm(req: IncomingMessage, limit: number, idleMs = 30_000): Promise<FormRead> {
  return new Promise((resolve, reject) => {
    const stopWatch = watchBody(req, { idleMs, totalMs: idleMs, onTimeout: (kind) => resolve({ form: new URLSearchParams(), timedOut: bodyTimeoutMessage(kind, idleMs, idleMs) }) });
    req.once("close", stopWatch);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      over = true;
      chunks.length = 0;
      resolve({ form: new URLSearchParams(), tooLarge: true });
    });
    req.on("end", () => {
      stopWatch();
      if (!over) resolve({ form: new URLSearchParams(Buffer.concat(chunks).toString("utf8")) });
    });
    req.on("error", reject);
  });
}

/** What a page says about a form past the limit. */
export const FORM_TOO_LARGE = "The form was too large: an email has at most 254 characters and a password at most 256.";
