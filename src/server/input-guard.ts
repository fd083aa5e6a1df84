/**
 * Text the databases would store differently is refused before anything reads it: a lone
 * surrogate (half of a UTF-16 pair) in the document or in any variable, string or key
 * (SQLite keeps it, PostgreSQL replaces or refuses it). BAD_USER_INPUT naming where. Runs on
 * HTTP and graphql-ws alike (envelop's parse, execute and subscribe). JSON arguments get their
 * own checks (depth, numbers) in the JSON scalar (src/schema/scalars.ts).
 */
import { type ExecutionResult, GraphQLError, type parse, type Source } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { hasLoneSurrogate, jsonProblem } from '../json.js';

const WELL_FORMED = 'send well-formed Unicode (a surrogate pair whole, or U+FFFD)';

function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

/** Line and column (1-based) of the first lone surrogate in `text`. */
function surrogatePosition(text: string): { line: number; column: number } {
  const index = text.search(/\p{Cs}/u);
  const before = text.slice(0, Math.max(index, 0)).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/**
 * The error for variables that hold a lone surrogate (in a value or a key), or null. Walks
 * them without recursion, whatever their depth.
 */
export function variablesProblem(variables: unknown): GraphQLError | null {
  if (typeof variables !== 'object' || variables === null) return null;
  const problem = jsonProblem(variables, { maxDepth: Number.POSITIVE_INFINITY, numbers: false });
  if (!problem) return null;
  const name = String(problem.path[0]);
  const at = problem.path.length > 1 ? ` at ${problem.at}` : '';
  return badInput(`Variable "$${name}"${at}: ${problem.reason}.`);
}

/** The yoga plugin: documents and variables with lone surrogates are BAD_USER_INPUT. */
export function inputGuard(): Plugin {
  const refuseVariables = (variables: unknown, stop: (result: ExecutionResult) => void): void => {
    const error = variablesProblem(variables);
    if (error) stop({ errors: [error] });
  };
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source: string | Source, options?: Parameters<typeof parse>[1]) => {
        const text = typeof source === 'string' ? source : source.body;
        if (hasLoneSurrogate(text)) {
          const { line, column } = surrogatePosition(text);
          throw badInput(
            `The document holds a lone surrogate (half of a UTF-16 pair) at line ${line}, column ${column}; ${WELL_FORMED}.`,
          );
        }
        return parseFn(source, options);
      });
    },
    onExecute({ args, setResultAndStopExecution }) {
      refuseVariables(args.variableValues, setResultAndStopExecution);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      refuseVariables(args.variableValues, setResultAndStopExecution);
    },
  };
}
