/**
 * `GET /threads/<id>/export?format=<TranscriptFormat>` (issue 11, point 3): a thread in any
 * format, streamed from the database page by page (src/transcripts/export-stream.ts) with
 * backpressure (the next page is read once the socket took the last), so a 100k-item thread
 * costs a page of memory, not the thread.
 *
 * Bodies: line formats (THREADSTORE_JSONL, CLAUDE_CODE_JSONL) as JSONL, one value a line,
 * `application/x-ndjson`; the others as one JSON document, `application/json`, written as it
 * goes (an array, or ANTHROPIC_MESSAGES' `{system?, messages: [...]}`). What the format cannot
 * carry is sent after the body in the HTTP trailers `x-transcript-dropped-count` and
 * `x-transcript-dropped` (JSON, the first MAX_TRAILER_ENTRIES entries, non-ASCII escaped):
 * the same entries Thread.transcript lists in extensions.transcriptDropped.
 *
 * Authenticated as the API is (src/identity/authenticate.ts; scope threads:read; another
 * tenant's thread is NOT_FOUND like a missing one) and with the browser rules of a GraphQL GET
 * (src/server/browser.ts): the Host guard runs before (app.ts), and the request needs
 * Authorization or the CSRF header. Errors before the body are GraphQL-shaped JSON
 * (`{errors: [{message, extensions: {code}}]}`) with the contract's HTTP statuses; a failure
 * after the body started cuts the response (the client sees an incomplete chunked body).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ServiceContext } from '../context.js';
import { dependencyFailure, unavailableError } from '../db/unavailable.js';
import { quote, ThreadstoreError, threadNotFound } from '../errors.js';
import type { Authenticator } from '../identity/authenticate.js';
import { findThread } from '../threads/thread.service.js';
import { type ExportChunk, exportChunks, shapeOf } from '../transcripts/export-stream.js';
import { type Dropped, TRANSCRIPT_FORMATS, type TranscriptFormat } from '../transcripts/types.js';
import { type Audit, attemptedMethod } from './audit.js';
import { CSRF_HEADER } from './browser.js';
import { requestIdOf } from './logging.js';
import { writeWithBackpressure } from './response-write.js';

const PATH = /^\/threads\/([^/]+)\/export$/;
/** Dropped entries written in full into the trailer; the count says how many there were. */
export const MAX_TRAILER_ENTRIES = 100;

const HTTP_STATUS: Record<string, number> = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  UNAVAILABLE: 503,
};

/** A refusal before the body: a contract code and a message. */
class Refusal extends ThreadstoreError {}

function answer(
  res: ServerResponse,
  error: ThreadstoreError,
  status = HTTP_STATUS[error.code] ?? 500,
): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="threadstore"';
  if (status === 503) headers['retry-after'] = '5';
  const extensions = { ...error.details, code: error.code };
  res
    .writeHead(status, headers)
    .end(JSON.stringify({ errors: [{ message: error.message, extensions }] }));
}

/** JSON with every non-ASCII character escaped (HTTP header values are Latin-1). */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The body text of one chunk: lines, array elements, or the messages document's pieces.
 * @param opened whether the document was opened (false for the first chunk)
 * @param after whether elements were written before (a comma goes first)
 */
function chunkText(
  format: TranscriptFormat,
  chunk: ExportChunk,
  opened: boolean,
  after: boolean,
): string {
  const shape = shapeOf(format);
  if (shape === 'lines') return chunk.values.map((v) => `${JSON.stringify(v)}\n`).join('');
  const elements = chunk.values.map((v) => JSON.stringify(v)).join(',');
  const sep = after && elements ? ',' : '';
  if (opened) return `${sep}${elements}`;
  if (shape === 'array') return `[${elements}`;
  const system = chunk.system === undefined ? '' : `"system":${JSON.stringify(chunk.system)},`;
  return `{${system}"messages":[${elements}`;
}

/** Streams the thread; the caller has checked everything. */
async function stream(
  ctx: ServiceContext,
  res: ServerResponse,
  threadId: string,
  format: TranscriptFormat,
): Promise<void> {
  const thread = await findThread(ctx, threadId);
  if (!thread) throw new Refusal('NOT_FOUND', threadNotFound(threadId).message, { threadId });
  const lines = shapeOf(format) === 'lines';
  res.writeHead(200, {
    'content-type': lines
      ? 'application/x-ndjson; charset=utf-8'
      : 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    trailer: 'x-transcript-dropped-count, x-transcript-dropped',
  });
  const dropped: Dropped[] = [];
  let droppedCount = 0;
  let opened = false;
  let after = false;
  for await (const chunk of exportChunks(ctx, thread, format)) {
    if (res.destroyed) return;
    droppedCount += chunk.dropped.length;
    dropped.push(...chunk.dropped.slice(0, MAX_TRAILER_ENTRIES - dropped.length));
    const text = chunkText(format, chunk, opened, after);
    opened = true;
    after ||= chunk.values.length > 0;
    if (text) await writeWithBackpressure(res, text);
  }
  if (!opened)
    await writeWithBackpressure(res, chunkText(format, { values: [], dropped: [] }, false, false));
  if (!lines) res.write(shapeOf(format) === 'messages' ? ']}' : ']');
  res.addTrailers({
    'x-transcript-dropped-count': String(droppedCount),
    'x-transcript-dropped': asciiJson(dropped),
  });
  res.end();
}

/** The route's dependencies: what the GraphQL context is made of. */
export interface ExportRouteDeps {
  authenticator: Authenticator;
  base: Omit<ServiceContext, 'identity' | 'tenantId'>;
  audit: Audit;
  logger: Logger;
}

/** The identity and checks of a request, or a Refusal. */
async function checked(deps: ExportRouteDeps, req: IncomingMessage, url: URL) {
  const format = url.searchParams.get('format') ?? '';
  if (!(TRANSCRIPT_FORMATS as readonly string[]).includes(format)) {
    throw new Refusal(
      'BAD_USER_INPUT',
      `format must be one of ${TRANSCRIPT_FORMATS.join(', ')}; got ${quote(format, 64)}.`,
      { argument: 'format' },
    );
  }
  const authorization = req.headers.authorization;
  if (!authorization && req.headers[CSRF_HEADER] === undefined) {
    throw new Refusal(
      'FORBIDDEN',
      `A GET request could come from any web page, so it runs only with an Authorization header or the header "${CSRF_HEADER}: 1"; add one.`,
    );
  }
  const identity = await deps.authenticator.authenticate(authorization);
  if (!identity.scopes.has('threads:read')) {
    throw new Refusal(
      'FORBIDDEN',
      'GET /threads/<id>/export needs the scope threads:read, which your credentials lack; use a key or token granted it.',
      { scope: 'threads:read' },
    );
  }
  const ctx: ServiceContext = { ...deps.base, identity, tenantId: identity.tenantId };
  return { ctx, format: format as TranscriptFormat };
}

/**
 * The export route as an HTTP handler.
 * @returns a handler that answers and resolves true for `/threads/<id>/export`, false otherwise
 */
export function exportRoute(deps: ExportRouteDeps) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = PATH.exec(url.pathname);
    if (!match) return false;
    if (req.method !== 'GET') {
      res.setHeader('allow', 'GET');
      answer(res, new Refusal('BAD_USER_INPUT', `${req.method} is not served here; use GET.`));
      return true;
    }
    let threadId = match[1]!;
    try {
      threadId = decodeURIComponent(threadId);
      const { ctx, format } = await checked(deps, req, url);
      await stream(ctx, res, threadId, format);
    } catch (error) {
      const known =
        error instanceof URIError
          ? new Refusal(
              'BAD_USER_INPUT',
              'The thread id in the path is not valid percent-encoding.',
            )
          : error instanceof ThreadstoreError
            ? error
            : dependencyFailure(error)
              ? unavailableError(dependencyFailure(error)!)
              : null;
      if (known && (known.code === 'UNAUTHENTICATED' || known.code === 'FORBIDDEN')) {
        const { code } = known;
        deps.audit.log({
          transport: 'http',
          attempted: attemptedMethod(req.headers.authorization),
          outcome: code,
          status: HTTP_STATUS[code],
          reason: 'export refused',
          threadId,
          requestId: requestIdOf(req),
        });
      }
      if (res.headersSent) {
        deps.logger.error(
          { err: error, threadId, requestId: requestIdOf(req) },
          'export failed after its body started',
        );
        res.destroy();
      } else if (known) {
        answer(res, known);
      } else {
        deps.logger.error({ err: error, threadId, requestId: requestIdOf(req) }, 'export failed');
        // As GraphQL masks it: no detail to the client, the stack in the log.
        const extensions = { code: 'INTERNAL_SERVER_ERROR' };
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ errors: [{ message: 'Unexpected error.', extensions }] }));
      }
    }
    return true;
  };
}
