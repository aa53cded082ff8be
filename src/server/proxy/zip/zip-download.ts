/**
 * "Download as zip" (issue 22.1): the selected files and folders of one bucket as one zip,
 * streamed as it is built, never held whole in memory or on disk. Two steps, because a download
 * is a plain navigation (no custom header, no JSON body) while the selection can be thousands of
 * keys: POST /api/zip with the selection (an ordinary API call, CSRF-checked like the rest)
 * answers a one-time URL; GET of that URL, by the same person within a minute, streams the zip.
 *
 * Files come from the upstream with the key (GET /v0/storage/public/…), one at a time, so a slow
 * browser slows the reads instead of filling memory; folders are expanded with the list
 * extension. A file that cannot be read is left out and named in "_not-included.txt" at the end
 * (the zip has already started, so a status code can no longer say it). Entries are stored
 * uncompressed: most bucket content (images, video, archives) is compressed already, and storing
 * keeps the zip as fast as a plain read.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import archiver from "archiver";
import { errorBody } from "../../../shared/errors";
import { encodeKeyPath } from "../../../shared/storage";
import type { Upstream } from "../forward";
import { commonFolder, contentDisposition, entryName, MAX_FILES, parseZipRequest, reportName, type ZipRequest } from "./zip-plan";

export const ZIP_PATH = "/api/zip";
const TOKEN_MS = 60_000;

interface Pending {
  who: string;
  request: ZipRequest;
  expires: number;
}

type Answer = { status: number; body: unknown };

export interface ZipDownloads {
  /** POST /api/zip: checks the selection (and that `mayRead` allows the bucket), answers {url}. */
  start(who: string, body: unknown, mayRead: (bucket: string) => string | undefined): Answer;
  /** GET /api/zip/<token>: the zip itself, or an error answer when the token is unknown. */
  stream(req: IncomingMessage, res: ServerResponse, token: string, who: string, headers: Record<string, string>): Promise<Answer | undefined>;
}

export function createZipDownloads(upstream: Upstream, opts: { sendIdleMs: number; log(line: string): void }): ZipDownloads {
  const pending = new Map<string, Pending>();
  const sweep = () => {
    const now = Date.now();
    for (const [t, p] of pending) if (p.expires < now) pending.delete(t);
  };

  async function* filesOf(request: ZipRequest, signal: AbortSignal, notIncluded: string[]): AsyncGenerator<{ key: string; lastModified?: string }> {
    let count = 0;
    for (const item of request.items) {
      if (!item.endsWith("/")) {
        yield { key: item };
        continue;
      }
      // A folder: everything under it, depth first, page by page.
      const folders = [item];
      while (folders.length && !signal.aborted) {
        const prefix = folders.shift()!;
        let cursor: string | undefined;
        do {
          const q = new URLSearchParams({ prefix, limit: "1000", ...(cursor ? { cursor } : {}) });
          const page = await upstream.getJson(`/v0/storage/list/${encodeURIComponent(request.bucket)}?${q}`);
          if (page.status !== 200) {
            notIncluded.push(`${prefix} (the folder could not be listed: HTTP ${page.status})`);
            break;
          }
          const body = page.body as { items?: { key: string; lastModified?: string }[]; folders?: string[]; nextCursor?: string | null };
          for (const f of body.items ?? []) {
            if (++count > MAX_FILES) {
              notIncluded.push(`everything past the first ${MAX_FILES.toLocaleString("en")} files (select fewer folders)`);
              return;
            }
            yield f;
          }
          for (const sub of body.folders ?? []) folders.push(sub.startsWith(prefix) ? (sub.endsWith("/") ? sub : `${sub}/`) : `${prefix}${sub.replace(/\/?$/, "/")}`);
          cursor = body.nextCursor ?? undefined;
        } while (cursor && !signal.aborted);
      }
    }
  }

  return {
    start(who, body, mayRead) {
      sweep();
      const parsed = parseZipRequest(body);
      if (!parsed.ok) return { status: 400, body: errorBody("validation_error", parsed.message) };
      const refusal = mayRead(parsed.request.bucket);
      if (refusal) return { status: 403, body: errorBody("forbidden", refusal) };
      const token = randomBytes(24).toString("base64url");
      pending.set(token, { who, request: parsed.request, expires: Date.now() + TOKEN_MS });
      return { status: 200, body: { url: `${ZIP_PATH}/${token}`, items: parsed.request.items.length } };
    },

    async stream(req, res, token, who, headers) {
      sweep();
      const p = pending.get(token);
      if (!p || p.who !== who) return { status: 404, body: errorBody("not_found", "This download link is unknown or has expired (they last a minute and work once): start the download again from the bucket.") };
      pending.delete(token);
      const { request } = p;
      const abort = new AbortController();
      const archive = archiver("zip", { store: true });
      const notIncluded: string[] = [];
      let failed: Error | undefined;
      archive.on("warning", (e) => opts.log(`zip of ${request.bucket}: ${e.message}`));
      archive.on("error", (e) => {
        failed = e;
        abort.abort();
      });
      res.writeHead(200, {
        ...headers,
        "content-type": "application/zip",
        "content-disposition": contentDisposition(request.name),
        "cache-control": "no-store",
      });
      archive.pipe(res);
      res.on("close", () => {
        if (!res.writableFinished) {
          abort.abort();
          archive.abort();
        }
      });
      // A browser that stops taking the zip for sendIdleMs is cut, as for any other download.
      let lastWritten = -1;
      let idleSince = Date.now();
      const watchdog = setInterval(() => {
        const written = res.socket?.bytesWritten ?? 0;
        if (written !== lastWritten || !res.writableNeedDrain) {
          lastWritten = written;
          idleSince = Date.now();
        } else if (Date.now() - idleSince > opts.sendIdleMs) {
          opts.log(`client stopped reading the zip of ${request.bucket}: cut after ${opts.sendIdleMs / 1000} s`);
          abort.abort();
          res.destroy();
        }
      }, 1000);
      watchdog.unref();

      const base = commonFolder(request.items);
      const written = new Set<string>();
      try {
        for await (const f of filesOf(request, abort.signal, notIncluded)) {
          if (abort.signal.aborted) break;
          let answer: Response;
          try {
            answer = await upstream.openStream(`/v0/storage/public/${encodeURIComponent(request.bucket)}/${encodeKeyPath(f.key)}`, {}, abort.signal);
          } catch (e) {
            if (abort.signal.aborted) break;
            notIncluded.push(`${f.key} (${(e as Error).message})`);
            continue;
          }
          if (!answer.ok || !answer.body) {
            notIncluded.push(`${f.key} (HTTP ${answer.status})`);
            await answer.body?.cancel().catch(() => {});
            continue;
          }
          const modified = f.lastModified ?? answer.headers.get("last-modified") ?? undefined;
          const entryDone = new Promise<void>((resolve) => archive.once("entry", () => resolve()));
          const name = entryName(f.key, base);
          written.add(name);
          archive.append(Readable.fromWeb(answer.body as never), { name, date: modified ? new Date(modified) : new Date() });
          await Promise.race([entryDone, new Promise<void>((resolve) => abort.signal.addEventListener("abort", () => resolve(), { once: true }))]);
        }
        if (!abort.signal.aborted) {
          if (notIncluded.length) archive.append(`These were not included:\n${notIncluded.join("\n")}\n`, { name: reportName(written) });
          await archive.finalize();
        }
      } catch (e) {
        failed = e as Error;
      } finally {
        clearInterval(watchdog);
      }
      if (failed && !abort.signal.aborted) {
        opts.log(`zip of ${request.bucket} failed: ${failed.message}`);
        res.destroy();
      }
      return undefined;
    },
  };
}
