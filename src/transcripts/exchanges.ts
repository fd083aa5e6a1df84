/**
 * Recorded HTTP exchanges (the fixtures' cassette files: `{cassettes: [{path, interactions:
 * [{request_body, response_body}]}]}`, or one `{request_body, response_body}`): each exchange
 * is one conversation, the request's history followed by the response.
 */
import { isJsonObject, type JsonValue } from '../json.js';
import type { JsonObject } from './types.js';

/** One request/response pair, with where it sits in the file. */
export interface Exchange {
  request: JsonObject;
  response: JsonObject | null;
  /** "cassettes[2].interactions[1]" or "". */
  where: string;
  /** The cassette's path, when there is one. */
  source: string | null;
}

/** The exchanges of a value, or null when it holds none. */
export function exchangesOf(value: unknown): Exchange[] | null {
  if (isJsonObject(value) && Array.isArray(value.cassettes)) {
    return value.cassettes.flatMap((c, i) => {
      if (!isJsonObject(c) || !Array.isArray(c.interactions)) return [];
      const source = typeof c.path === 'string' ? c.path : null;
      return c.interactions.flatMap((x, j) =>
        exchangeOf(x, `cassettes[${i}].interactions[${j}]`, source),
      );
    });
  }
  if (isJsonObject(value) && 'request_body' in value) return exchangeOf(value, '', null);
  return null;
}

function exchangeOf(x: JsonValue, where: string, source: string | null): Exchange[] {
  if (!isJsonObject(x) || !isJsonObject(x.request_body)) return [];
  const response = isJsonObject(x.response_body) ? x.response_body : null;
  return [{ request: x.request_body, response, where, source }];
}

/** The keys of `value` other than `leave`, in order. */
export function without(value: JsonObject, ...leave: string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (!leave.includes(k)) out[k] = v;
  return out;
}
