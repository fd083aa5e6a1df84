/**
 * Scalars: DateTime and SafeInt (integers up to 2^53-1) from graphql-scalars (DateTime:
 * ISO-8601 in UTC with milliseconds), and JSON from
 * graphql-scalars with every value checked on the way in (src/json.ts, jsonProblem): at most
 * MAX_JSON_ARGUMENT_DEPTH levels, no number that JSON text cannot keep (1e400, -0), no lone
 * surrogate. Refused values are BAD_USER_INPUT naming the path inside the value.
 */
import { GraphQLError, GraphQLScalarType, type ValueNode } from 'graphql';
import { DateTimeResolver, JSONResolver, SafeIntResolver } from 'graphql-scalars';
import { jsonProblem, MAX_JSON_ARGUMENT_DEPTH } from '../json.js';
import { builder } from './builder.js';

/**
 * `value` when it can be stored as sent.
 * @throws GraphQLError BAD_USER_INPUT naming the path inside the value (graphql-js adds the
 *   variable or argument it came in)
 */
function checked<T>(value: T, node?: ValueNode): T {
  const problem = jsonProblem(value, { maxDepth: MAX_JSON_ARGUMENT_DEPTH });
  if (!problem) return value;
  const where = problem.at ? `JSON value at ${problem.at}` : 'JSON value';
  throw new GraphQLError(`${where}: ${problem.reason}.`, {
    nodes: node,
    extensions: { code: 'BAD_USER_INPUT' },
  });
}

const CheckedJSON = new GraphQLScalarType({
  ...JSONResolver.toConfig(),
  // Variables arrive parsed by JSON.parse (1e400 is already Infinity): checked before any
  // service walks them.
  parseValue: (value) => checked(value),
  // Literals: graphql-scalars parses numbers with parseFloat (-0 stays -0, 1e400 is Infinity).
  parseLiteral: (node, variables) => checked(JSONResolver.parseLiteral(node, variables), node),
});

builder.addScalarType('DateTime', DateTimeResolver, {
  description: 'ISO-8601 string in UTC with millisecond precision, e.g. 2026-01-02T03:04:05.678Z',
});
builder.addScalarType('JSON', CheckedJSON, { description: 'Any JSON value.' });
builder.addScalarType('SafeInt', SafeIntResolver, {
  description: 'An integer up to 2^53-1 (token totals outgrow Int).',
});
