import type { IncomingMessage } from "node:http";

/** A sign-in form as read: its fields, or that it was larger than the limit (nothing kept). */
export type FormRead = { form: URLSearchParams; tooLarge?: undefined } | { form?: undefined; tooLarge: true };

/**
 * Reads an urlencoded form of at most `limit` bytes. Past the limit the rest is read and thrown
 * away rather than the request destroyed: the page can still answer (413, `connection: close`)
 * and the request still has its address for the attempt limits and the audit trail. (Leaving a
 * `for await` early destroyed the socket: the next `req.socket.remoteAddress` threw, a 500.)
 */
export function readForm(req: IncomingMessage, limit: number): Promise<FormRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      over = true;
      chunks.length = 0;
      resolve({ tooLarge: true });
    });
    req.on("end", () => {
      if (!over) resolve({ form: new URLSearchParams(Buffer.concat(chunks).toString("utf8")) });
    });
    req.on("error", reject);
  });
}

/** What a page says about a form past the limit. */
export const FORM_TOO_LARGE = "The form was too large: an email has at most 254 characters and a password at most 256.";
