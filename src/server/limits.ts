/**
 * Limits on what a client may send and receive: query depth, aliases, tokens and directives
 * (graphql-armor, checked before execution), the operation's cost and the response's size
 * (cost.ts), documents nested too deeply for the parser, and the request body size, also for
 * bodies sent without a declared length (chunked).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { GraphQLError, type parse } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Env } from '../env.js';
import { costLimitPlugin, responseSizePlugin } from './cost.js';
import { writeWithBackpressure } from './response-write.js';
import type { ThreadstoreYoga } from './yoga.js';

type ParseHookArgs = {
  parseFn: typeof parse;
  setParseFn: (fn: typeof parse) => void;
};

/** graphql-armor's rejections carry no code; they are documents that do not validate. */
function withValidationCode(_ctx: unknown, error: GraphQLError): void {
  (error.extensions as Record<string, unknown>).code ??= 'GRAPHQL_VALIDATION_FAILED';
}

/**
 * The deepest nesting of brackets (`{`, `[`, `(`) a document may have before it is parsed: far
 * above MAX_QUERY_DEPTH and JSON literals' own limit (64), far below what overflows the
 * parser's stack.
 */
export const MAX_PARSE_NESTING = 1_000;

/**
 * Whether `body` nests brackets deeper than `max`, outside strings, block strings and comments.
 * One pass over the text, no allocation.
 */
function nestedDeeperThan(body: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 0x7b || c === 0x5b || c === 0x28) {
      // { [ (
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d || c === 0x29) {
      depth--;
    } else if (c === 0x23) {
      // # comment: to the end of the line.
      while (i < body.length && body.charCodeAt(i) !== 0x0a && body.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22) {
      if (body.startsWith('"""', i)) {
        // Block string: to the next unescaped """.
        i += 3;
        while (i < body.length && !body.startsWith('"""', i))
          i += body.startsWith('\\"""', i) ? 4 : 1;
        i += 2;
      } else {
        // String: to the next unescaped quote or the end of the line.
        for (i++; i < body.length; i++) {
          const d = body.charCodeAt(i);
          if (d === 0x5c) i++;
          else if (d === 0x22 || d === 0x0a || d === 0x0d) break;
        }
      }
    }
  }
  return false;
}

/**
 * A document nested thousands of levels deep would overflow the parser's stack, or reach
 * graphql-armor's token limit first, depending on how much stack the parser's frames take at
 * that moment (a test saw both): that is the client's syntax problem, answered the same way
 * every time. Documents nested deeper than MAX_PARSE_NESTING are refused before parsing; a
 * stack overflow while parsing is answered the same way.
 */
function parseDepthGuard(): Plugin {
  const tooDeep = () =>
    new GraphQLError(
      `Syntax Error: the document is nested too deeply (more than ${MAX_PARSE_NESTING} levels of brackets).`,
      { extensions: { code: 'GRAPHQL_PARSE_FAILED' } },
    );
  return {
    onParse({ parseFn, setParseFn }: ParseHookArgs) {
      setParseFn((source: Parameters<typeof parse>[0], options?: Parameters<typeof parse>[1]) => {
        const body = typeof source === 'string' ? source : source.body;
        if (nestedDeeperThan(body, MAX_PARSE_NESTING)) throw tooDeep();
        try {
          return parseFn(source, options);
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
          throw tooDeep();
        }
      });
    },
  };
}

/**
 * Depth, alias, token and directive limits, checked before execution (a 5,000-deep query would
 * otherwise overflow the parser's stack), the parser's own depth guard, the cost limit (with
 * variables, before any resolver) and the response size cap.
 */
export function queryLimitPlugins(env: Env): Plugin[] {
  const onReject = [withValidationCode];
  return [
    EnvelopArmorPlugin({
      maxDepth: { n: env.MAX_QUERY_DEPTH, ignoreIntrospection: true, onReject },
      maxAliases: { n: env.MAX_QUERY_ALIASES, onReject },
      maxTokens: { n: env.MAX_QUERY_TOKENS, onReject },
      // Cost is ours (cost.ts): armor's counts neither page sizes nor variables.
      costLimit: { enabled: false },
      maxDirectives: { n: 50, onReject },
      // With introspection off, "Did you mean ...?" would reveal the schema field by field.
      blockFieldSuggestion: { enabled: !env.INTROSPECTION },
    }) as Plugin,
    parseDepthGuard(),
    costLimitPlugin(env.MAX_QUERY_COST),
    responseSizePlugin(env.MAX_RESPONSE_BYTES),
  ];
}

/** 413 with a GraphQL-shaped error body, closing the connection (the rest is not read). */
function tooLarge(res: ServerResponse, size: number, limit: number): void {
  res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(
    JSON.stringify({
      errors: [
        {
          message: `The request body is over ${size} bytes; the limit is ${limit}.`,
          extensions: { code: 'PAYLOAD_TOO_LARGE' },
        },
      ],
    }),
  );
}

/**
 * A body without a declared length: read it here, within the limit, then hand it to yoga
 * (which would otherwise read it whole, whatever its size). The response is written as yoga's
 * node handler writes one: a client that goes away aborts the request (a live stream ends and
 * frees its follower), and one that stops reading pauses it (TCP backpressure), so a stream's
 * backlog stays in its byte-counted follower queue.
 */
async function handleChunked(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  yoga: ThreadstoreYoga,
): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      tooLarge(res, size, limit);
      req.destroy();
      return;
    }
    chunks.push(chunk);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && name !== 'transfer-encoding') headers.set(name, String(value));
  }
  const gone = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) gone.abort();
  };
  res.once('close', onClose);
  try {
    // With `req` as the server context, as yoga's node handler gives it: the request's lines
    // find its id through it (logging.ts).
    const response = await yoga.fetch(
      `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`,
      { method: req.method, headers, body: Buffer.concat(chunks), signal: gone.signal },
      { req },
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) {
      // Leaving the loop cancels the body: a live stream's subscription ends with it.
      for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (gone.signal.aborted) break;
        await writeWithBackpressure(res, part);
      }
    }
    res.end();
  } finally {
    res.off('close', onClose);
  }
}

/**
 * Passes requests to yoga when their body is within `limit` bytes; answers 413
 * PAYLOAD_TOO_LARGE otherwise, whether the length is declared or the body is chunked.
 */
export function withBodyLimit(limit: number, yoga: ThreadstoreYoga) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (
      req.headers['content-length'] === undefined &&
      req.headers['transfer-encoding'] !== undefined
    ) {
      await handleChunked(req, res, limit, yoga);
      return;
    }
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > limit) {
      tooLarge(res, length, limit);
      req.resume();
      return;
    }
    await yoga.requestListener(req, res);
  };
}
