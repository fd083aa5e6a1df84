/**
 * What one operation may return: its cost, computed before execution from the field costs the
 * schema declares (@pothos/plugin-complexity: page sizes and `nodes` ids multiply, variables
 * included), and the size of its response, measured before it is serialised (issue 10:
 * "cost counts what is returned").
 */
import { complexityFromQuery } from '@pothos/plugin-complexity';
import {
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';
import { ThreadstoreError } from '../errors.js';
import { existingReadBudget } from '../read-budget.js';

/** The operation `operationName` selects (or the only one), or null. */
function selectedOperation(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode | null {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operationName) return operations.find((o) => o.name?.value === operationName) ?? null;
  return operations.length === 1 ? (operations[0] ?? null) : null;
}

/**
 * The names of the variables used in arguments of fields whose cost is a function of their
 * arguments (a page's first/last, `nodes`' ids): the only variables plugin-complexity reads.
 */
function costVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: FragmentDefinitionNode[],
): Set<string> {
  const names = new Set<string>();
  const typeInfo = new TypeInfo(schema);
  const collect = visitWithTypeInfo(typeInfo, {
    Field(node) {
      if (typeof typeInfo.getFieldDef()?.extensions?.complexity !== 'function') return;
      for (const argument of node.arguments ?? []) {
        visit(argument, {
          Variable(variable) {
            names.add(variable.name.value);
          },
        });
      }
    },
  });
  visit(operation, collect);
  for (const fragment of fragments) visit(fragment, collect);
  return names;
}

/**
 * The document plugin-complexity is given for one operation: the operation with only the
 * definitions of its cost variables (costVariables), and the fragments. Variables no cost
 * function reads (an append's items) are not coerced twice: execution coerces them, and the
 * cost of a 100-item append's second coercion was 8% of its CPU (bench S2).
 */
interface CostDocument {
  document: DocumentNode;
  /** The cost variables' names, to pick their values from the request's. */
  variables: string[];
}

// Per parsed document (yoga's parse cache hands out the same one) and operation name.
const costDocuments = new WeakMap<DocumentNode, Map<string, CostDocument | null>>();

/** The CostDocument of the operation `operationName` selects in `document`, or null. */
function costDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): CostDocument | null {
  let byName = costDocuments.get(document);
  if (!byName) {
    byName = new Map();
    costDocuments.set(document, byName);
  }
  const key = operationName ?? '';
  let found = byName.get(key);
  if (found === undefined) {
    const operation = selectedOperation(document, operationName);
    if (!operation) found = null;
    else {
      const fragments = document.definitions.filter(
        (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION,
      );
      const names = costVariables(schema, operation, fragments);
      const definitions = (operation.variableDefinitions ?? []).filter((d) =>
        names.has(d.variable.name.value),
      );
      found = {
        document: {
          kind: Kind.DOCUMENT,
          definitions: [{ ...operation, variableDefinitions: definitions }, ...fragments],
        },
        variables: definitions.map((d) => d.variable.name.value),
      };
    }
    // Operation names are the client's: a document sent with many names keeps a few.
    if (byName.size < 16) byName.set(key, found);
  }
  return found;
}

/** Cost of an operation, or why it cannot be computed here. */
export type CostResult =
  | { cost: number }
  | { refused: ThreadstoreError }
  | { skipped: 'no-operation' | 'bad-variables' };

/**
 * The cost of the operation of `document` that `operationName` selects: each field costs 1,
 * its selection multiplied by the field's multiplier (a connection's page size, `nodes`' id
 * count, 10 for other lists). `refused` when a field's cost function refuses its arguments
 * (`nodes` over 100 ids); `skipped` when the operation or the variables its cost reads are
 * invalid (execution reports that with its own code). Only the variables a cost function
 * reads are coerced here (costDocument).
 */
export function operationCost(args: {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
  contextValue: object;
}): CostResult {
  const prepared = costDocument(args.schema, args.document, args.operationName);
  if (!prepared) return { skipped: 'no-operation' };
  const given = args.variableValues ?? {};
  const variables: Record<string, unknown> = {};
  for (const name of prepared.variables) {
    if (Object.hasOwn(given, name)) variables[name] = given[name];
  }
  try {
    const { complexity } = complexityFromQuery(prepared.document, {
      schema: args.schema,
      ctx: args.contextValue,
      variables,
    });
    return { cost: complexity };
  } catch (error) {
    if (error instanceof ThreadstoreError) return { refused: error };
    // Variables that do not coerce: execution answers BAD_USER_INPUT for them.
    if (error instanceof GraphQLError) return { skipped: 'bad-variables' };
    throw error;
  }
}

/** The error for an operation over the cost limit: its cost and the limit, and what to do. */
function overCost(cost: number, maxCost: number): GraphQLError {
  return new GraphQLError(
    `The operation costs ${cost}; the limit is ${maxCost}. Each field counts once per row it can return (a page counts first/last, or 50 when left out; nodes counts its ids): ask for smaller pages, fewer aliases or fewer fields.`,
    { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', cost, maxCost } },
  );
}

/** A ThreadstoreError as the GraphQLError a client sees (code and details in extensions). */
function asGraphQLError(error: ThreadstoreError): GraphQLError {
  // No originalError: yoga would take it for an unexpected error and answer HTTP 500.
  return new GraphQLError(error.message, { extensions: { ...error.details, code: error.code } });
}

/**
 * Refuses, before any resolver runs, operations (queries, mutations, subscriptions; HTTP and
 * WebSocket alike) whose cost is over `maxCost`: GRAPHQL_VALIDATION_FAILED naming the cost and
 * the limit. Arguments a field's cost refuses (`nodes` over 100 ids) get that field's error.
 */
export function costLimitPlugin(maxCost: number): Plugin {
  const check = (args: Parameters<typeof operationCost>[0]): ExecutionResult | null => {
    const result = operationCost(args);
    if ('refused' in result) return { errors: [asGraphQLError(result.refused)] };
    if ('cost' in result && result.cost > maxCost) {
      return { errors: [overCost(result.cost, maxCost)] };
    }
    return null;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const refusal = check(args);
      if (refusal) setResultAndStopExecution(refusal);
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const refusal = check(args);
      if (refusal) setResultAndStopExecution(refusal);
    },
  };
}

/** JSON length of a number, boolean or null as JSON.stringify writes it. */
function scalarLength(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  return 4; // null, undefined (written as null in arrays)
}

/** The most UTF-8 bytes one UTF-16 code unit takes in Buffer.byteLength (as jsonBytes counts). */
const MAX_BYTES_PER_UNIT = 3;

/**
 * The most characters JSON.stringify writes for a number: 25, as in -0.0000012345678901234567
 * (sign, "0.", five zeros, 17 digits; below 1e-6 JS switches to exponents, at most
 * -1.2345678901234567e-308, 24). A review found that 24 let such responses pass the cap.
 */
const LONGEST_NUMBER = 25;

/**
 * True when jsonBytes(value) is certainly at most `limit`: an upper bound of it that counts 3
 * bytes per UTF-16 code unit of every string and key and LONGEST_NUMBER per other scalar, with
 * no allocation and no native call per string (CPU profiles of history pages put jsonBytes at
 * 5-6% of a read). Stops (false) once the bound passes `limit`.
 */
function surelyWithin(value: unknown, limit: number): boolean {
  let size = 0;
  const measure = (v: unknown): boolean => {
    if (typeof v === 'string') size += v.length * MAX_BYTES_PER_UNIT + 2;
    else if (v === null || typeof v !== 'object') size += LONGEST_NUMBER;
    else if (typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      return measure((v as { toJSON: () => unknown }).toJSON());
    } else if (Array.isArray(v)) {
      size += 2;
      for (const element of v) {
        size += 1;
        if (!measure(element)) return false;
      }
    } else {
      size += 2;
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        size += key.length * MAX_BYTES_PER_UNIT + 4;
        if (!measure((v as Record<string, unknown>)[key])) return false;
      }
    }
    return size <= limit;
  };
  return measure(value);
}

/**
 * The bytes JSON.stringify(value) would write, without writing it (strings as UTF-8 plus quotes;
 * escapes are not counted, so a string of control characters is under-counted). Stops once
 * over `limit`. An object reached again (one stored item repeated in a response) is measured
 * once and counted once per copy.
 */
export function jsonBytes(value: unknown, limit: number): number {
  const sizes = new WeakMap<object, number>();
  const measure = (v: unknown): number => {
    if (typeof v === 'string') return Buffer.byteLength(v, 'utf8') + 2;
    if (v === null || typeof v !== 'object') return scalarLength(v);
    const known = sizes.get(v);
    if (known !== undefined) return known;
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      return measure((v as { toJSON: () => unknown }).toJSON());
    }
    let size = 2;
    if (Array.isArray(v)) {
      for (const element of v) {
        size += measure(element) + 1;
        if (size > limit) return size;
      }
    } else {
      for (const [key, element] of Object.entries(v)) {
        if (element === undefined) continue;
        size += Buffer.byteLength(key, 'utf8') + 4 + measure(element);
        if (size > limit) return size;
      }
    }
    sizes.set(v, size);
    return size;
  };
  return measure(value);
}

/** The result sent instead of one over `maxBytes`. */
function tooLargeResult(maxBytes: number): ExecutionResult {
  return {
    data: null,
    errors: [
      new GraphQLError(
        `The response would be over ${maxBytes} bytes, the limit (MAX_RESPONSE_BYTES). Ask for fewer rows per request (a smaller first/last, fewer nodes ids, fewer aliases) or leave out large fields such as data.`,
        { extensions: { code: 'PAYLOAD_TOO_LARGE', maxBytes } },
      ),
    ],
  };
}

/**
 * Replaces a result (or a subscription event) whose JSON would be over `maxBytes` with one
 * PAYLOAD_TOO_LARGE error, before it is serialised: the oversized JSON text is never written.
 * An operation whose database reads passed its byte budget (src/read-budget.ts: the stores
 * stopped reading there) gets that read's error alone, with `data: null`. A subscription's
 * budget starts over with each event.
 */
export function responseSizePlugin(maxBytes: number): Plugin {
  // One result object can reach many followers (shared-subscriptions.ts): measured once.
  const verdicts = new WeakMap<ExecutionResult, boolean>();
  const isOver = (result: ExecutionResult): boolean => {
    let over = verdicts.get(result);
    if (over === undefined) {
      // Nearly every response is far under the cap: the cheap bound clears it unmeasured.
      over = !surelyWithin(result, maxBytes) && jsonBytes(result, maxBytes) > maxBytes;
      verdicts.set(result, over);
    }
    return over;
  };
  const cap =
    (contextValue: object, perEvent: boolean) =>
    ({
      result,
      setResult,
    }: {
      result: ExecutionResult;
      setResult: (r: ExecutionResult) => void;
    }) => {
      const budget = existingReadBudget(contextValue);
      if (budget?.exceeded) {
        setResult({ data: null, errors: [asGraphQLError(budget.exceeded)] });
      } else if (isOver(result)) {
        setResult(tooLargeResult(maxBytes));
      }
      if (perEvent) budget?.reset();
    };
  return {
    onExecute: ({ args }) => ({
      onExecuteDone: (payload) =>
        handleStreamOrSingleExecutionResult(payload, cap(args.contextValue as object, false)),
    }),
    onSubscribe: ({ args }) => ({
      onSubscribeResult: (payload) =>
        handleStreamOrSingleExecutionResult(payload, cap(args.contextValue as object, true)),
    }),
  };
}
