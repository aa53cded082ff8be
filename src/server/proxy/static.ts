/**
 * Serves the built app from dist/: hashed files under /assets/ cached for a year, everything else
 * revalidated; a page route the server does not know (the app's own routes) gets index.html.
 */
import fs from "node:fs";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".webmanifest": "application/manifest+json",
};

/** The file under root that a URL path names, or undefined if it names none safely. */
export function resolveStaticPath(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return undefined;
  if (decoded.split("/").some((s) => s === "..")) return undefined;
  const file = path.join(root, decoded);
  if (file !== root && !file.startsWith(root + path.sep)) return undefined;
  return file;
}

async function statFile(file: string): Promise<fs.Stats | undefined> {
  try {
    const st = await fs.promises.stat(file);
    return st.isFile() ? st : undefined;
  } catch {
    return undefined;
  }
}

async function sendFile(req: IncomingMessage, res: ServerResponse, file: string, st: fs.Stats, headers: OutgoingHttpHeaders) {
  const etag = `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  const common = { ...headers, etag };
  if (req.headers["if-none-match"] === etag) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  res.writeHead(200, {
    ...common,
    "content-type": TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream",
    "content-length": st.size,
  });
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  await pipeline(fs.createReadStream(file), res).catch(() => res.destroy());
}

export function createStaticHandler(distDir: string, pageHeaders: OutgoingHttpHeaders) {
  const root = path.resolve(distDir);
  return async function serveStatic(req: IncomingMessage, res: ServerResponse, urlPath: string): Promise<void> {
    const file = resolveStaticPath(root, urlPath);
    const st = file && urlPath !== "/" ? await statFile(file) : undefined;
    if (file && st) {
      const immutable = urlPath.startsWith("/assets/");
      const cache = immutable ? "public, max-age=31536000, immutable" : "no-cache";
      const extra = file.endsWith(".html") ? pageHeaders : { "x-content-type-options": "nosniff" };
      return sendFile(req, res, file, st, { ...extra, "cache-control": cache });
    }
    // Only a browser navigating gets the app; a missing script or image stays a 404.
    const wantsPage = (String(req.headers.accept ?? "").includes("text/html") || urlPath === "/") && !urlPath.startsWith("/assets/");
    const index = path.join(root, "index.html");
    const indexStat = wantsPage ? await statFile(index) : undefined;
    if (indexStat) return sendFile(req, res, index, indexStat, { ...pageHeaders, "cache-control": "no-cache" });
    if (wantsPage) {
      res.writeHead(503, { ...pageHeaders, "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      res.end(`The app is not built (no ${index}). Run "npm start", which builds it, or "npm run build".\n`);
      return;
    }
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" });
    res.end("Not found\n");
  };
}
