/**
 * The thread browser at `/ui` (issue 12, point 3): the static files of ui/dist (built by
 * `npm run build:ui`, scripts/build-ui.mjs) served by the same server as the API.
 *
 * - `GET|HEAD /ui/<file>`: the file with its content type; the precompressed `<file>.br` or
 *   `<file>.gz` written by the build when the request accepts it (`Content-Encoding`,
 *   `Vary: Accept-Encoding`).
 * - Vite's hashed files (`/ui/assets/...`) are cached for a year (`immutable`); everything else
 *   (index.html) is `no-cache` with an ETag, so a new build shows at the next load.
 * - Client-side routes (`/ui/threads/<id>`, any path without a served file extension) get
 *   index.html; a missing asset is 404.
 * - `/ui` redirects to `/ui/`; other methods than GET and HEAD are 405.
 * - While ui/dist has no index.html: 503 with a one-line hint (`npm run build:ui`).
 * - Every answer carries a Content-Security-Policy that allows only this origin's scripts,
 *   styles and connections (the app has no inline script or style), and no framing.
 * The Host guard (browser.ts) runs before this route (app.ts); the files hold no data, so
 * they need no credentials: the app signs in against the API.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { acceptedEncodings } from './content-encoding.js';

/** ui/dist beside src/ (or dist/ when compiled): two levels up from this module. */
export const UI_DIST = fileURLToPath(new URL('../../ui/dist/', import.meta.url));

const PREFIX = '/ui';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * The page may load and connect to this origin only (ws: included by 'self' in CSP 3);
 * images also from data: URLs. Markdown images pointing elsewhere are not fetched (no
 * tracking pixels in a transcript).
 */
export const UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': UI_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

const NOT_BUILT =
  'The thread browser is not built: run `npm run build:ui` (it needs the dev dependencies), then reload.\n';

interface Found {
  path: string;
  size: number;
  mtimeMs: number;
}

async function file(path: string): Promise<Found | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? { path, size: info.size, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null;
  }
}

/** The file under `root` a URL path names, or null for a path that leaves it or is malformed. */
function resolveInside(root: string, urlPath: string): string | null {
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath.slice(PREFIX.length + 1));
  } catch {
    return null;
  }
  if (relative.includes('\0')) return null;
  const full = normalize(join(root, relative === '' ? 'index.html' : relative));
  const base = root.endsWith(sep) ? root : `${root}${sep}`;
  return full.startsWith(base) ? full : null;
}

/**
 * A path the app routes itself: under /ui/threads/ (thread ids may hold dots), or one whose
 * last segment has no file extension this route serves.
 */
function isAppRoute(path: string): boolean {
  if (path.startsWith(`${PREFIX}/threads/`)) return true;
  if (path.startsWith(`${PREFIX}/assets/`)) return false;
  return !(extname(path).toLowerCase() in CONTENT_TYPES);
}

function plain(res: ServerResponse, status: number, text: string, extra = {}): void {
  res
    .writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...SECURITY_HEADERS,
      ...extra,
    })
    .end(text);
}

/**
 * Sends `found` (or its precompressed variant when accepted), with cache headers and a
 * 304 for a matching If-None-Match.
 */
async function send(req: IncomingMessage, res: ServerResponse, found: Found): Promise<void> {
  const hashed = found.path.includes(`${sep}assets${sep}`);
  const etag = `"${found.size.toString(36)}-${Math.trunc(found.mtimeMs).toString(36)}"`;
  const headers: Record<string, string | number> = {
    'content-type': CONTENT_TYPES[extname(found.path).toLowerCase()] ?? 'application/octet-stream',
    'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    etag,
    vary: 'Accept-Encoding',
    ...SECURITY_HEADERS,
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers).end();
    return;
  }
  let body = found;
  for (const encoding of acceptedEncodings(req.headers['accept-encoding'])) {
    const variant = await file(`${found.path}.${encoding === 'br' ? 'br' : 'gz'}`);
    if (variant) {
      body = variant;
      headers['content-encoding'] = encoding;
      break;
    }
  }
  headers['content-length'] = body.size;
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  await pipeline(createReadStream(body.path), res);
}

/**
 * The /ui route for the HTTP server (app.ts): resolves true when it answered the request.
 * @param root the built app's folder (default ui/dist of this checkout)
 */
export function uiRoute(root: string = UI_DIST) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path !== PREFIX && !path.startsWith(`${PREFIX}/`)) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      plain(res, 405, 'The thread browser answers GET and HEAD only.\n', { allow: 'GET, HEAD' });
      return true;
    }
    if (path === PREFIX) {
      res.writeHead(301, { location: `${PREFIX}/`, ...SECURITY_HEADERS }).end();
      return true;
    }
    const index = await file(join(root, 'index.html'));
    if (!index) {
      plain(res, 503, NOT_BUILT, { 'retry-after': '60' });
      return true;
    }
    const target = resolveInside(root, path);
    if (target === null) {
      plain(res, 400, 'Not a file path of the thread browser.\n');
      return true;
    }
    const found = await file(target);
    if (found) await send(req, res, found);
    else if (isAppRoute(path)) await send(req, res, index);
    else plain(res, 404, `No such file in the thread browser: ${path}\n`);
    return true;
  };
}
