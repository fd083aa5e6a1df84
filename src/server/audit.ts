/**
 * The audit log (issue 9, point 8): one line with `msg: 'audit'` per mutation field that runs
 * and per refused request or WebSocket. A line says who (tenant, subject, authMethod; null
 * when no identity was established), over what (transport, operation name, root field, the
 * thread id a mutation names in `input.threadId` or `input.id`) and the outcome (`ok` or the
 * error code). Never logged: content, other variables, tokens, secrets.
 */
import {
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  getOperationAST,
  type OperationDefinitionNode,
  type ValueNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Identity } from '../identity/identity.js';
import { requestIdOf } from './logging.js';
import { clientErrorCode } from './mask-error.js';

export type Transport = 'http' | 'ws';

/** Codes that mean the caller was refused (logged for every kind of operation). */
const REFUSALS = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'RATE_LIMITED']);

/** HTTP statuses of refusals and their codes. */
const HTTP_REFUSALS: Record<number, string> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  429: 'RATE_LIMITED',
};

/** The longest thread id kept in a line (ids are short; a hostile one is cut). */
const MAX_THREAD_ID = 128;

export interface AuditEntry {
  transport: Transport;
  /** Who, when known (null: refused before credentials were verified). */
  identity?: Identity | null;
  operation?: string | null;
  /** The root field (a mutation's name, or the refused field). */
  field?: string | null;
  threadId?: string | null;
  /** `ok` or an error code. */
  outcome: string;
  /** A refusal's HTTP status. */
  status?: number;
  /** A refused or closed WebSocket's close code. */
  closeCode?: number;
  /** Why, in a few words (never a credential). */
  reason?: string;
  /** How a refused caller tried to authenticate, when no identity was established. */
  attempted?: 'API_KEY' | 'JWT' | 'OTHER' | null;
  /** The HTTP request's id (logging.ts requestIdOf), when not told by `request`. */
  requestId?: string;
}

export interface Audit {
  /**
   * Writes one audit line; `request` marks that HTTP request as audited, and gives the line its
   * requestId unless the entry has one.
   */
  log(entry: AuditEntry, request?: Request): void;
  /** True when a line was already written for `request`. */
  logged(request: Request): boolean;
}

/**
 * The audit log on `logger` (level info, so that LOG_LEVEL=info keeps it); a line for an HTTP
 * request carries its requestId (from the entry, else from `request`).
 */
export function createAudit(logger: Logger): Audit {
  const audited = new WeakSet<Request>();
  return {
    log(entry, request) {
      if (request) audited.add(request);
      const { identity, threadId, requestId: told, ...rest } = entry;
      const requestId = told ?? requestIdOf(request);
      logger.info(
        {
          ...(requestId ? { requestId } : {}),
          tenant: identity?.tenantId ?? null,
          subject: identity?.subject ?? null,
          authMethod: identity?.method ?? null,
          ...rest,
          ...(threadId ? { threadId: Array.from(threadId).slice(0, MAX_THREAD_ID).join('') } : {}),
        },
        'audit',
      );
    },
    logged: (request) => audited.has(request),
  };
}

/** The kind of credentials an Authorization value carries (never the value itself). */
export function attemptedMethod(authorization: string | null | undefined): AuditEntry['attempted'] {
  if (!authorization?.trim()) return null;
  if (/^Bearer\s+tsk_/i.test(authorization)) return 'API_KEY';
  return /^Bearer\s+\S+\.\S+\.\S*$/i.test(authorization) ? 'JWT' : 'OTHER';
}

/** A string from a literal or a variable, or null. */
function stringOf(node: ValueNode | undefined, variables: Record<string, unknown>): string | null {
  if (!node) return null;
  if (node.kind === 'StringValue') return node.value;
  if (node.kind === 'Variable') {
    const value = variables[node.name.value];
    return typeof value === 'string' ? value : null;
  }
  return null;
}

/** The thread id a mutation field names: `input.threadId`, else `input.id`. */
export function threadIdOf(field: FieldNode, variables: Record<string, unknown>): string | null {
  const input = field.arguments?.find((a) => a.name.value === 'input')?.value;
  if (!input) return null;
  if (input.kind === 'Variable') {
    const value = variables[input.name.value] as Record<string, unknown> | null | undefined;
    const id = value?.threadId ?? value?.id;
    return typeof id === 'string' ? id : null;
  }
  if (input.kind !== 'ObjectValue') return null;
  const named = (name: string) => input.fields.find((f) => f.name.value === name)?.value;
  return stringOf(named('threadId'), variables) ?? stringOf(named('id'), variables);
}

/** The root fields of an operation (inline fragments at the root included). */
function rootFields(operation: OperationDefinitionNode): FieldNode[] {
  const fields: FieldNode[] = [];
  const visit = (selections: OperationDefinitionNode['selectionSet']['selections']) => {
    for (const selection of selections) {
      if (selection.kind === 'Field') fields.push(selection);
      else if (selection.kind === 'InlineFragment') visit(selection.selectionSet.selections);
    }
  };
  visit(operation.selectionSet.selections);
  return fields;
}

/** The outcome of the root field at `key`: the code of its first error, else ok. */
function outcomeOf(result: ExecutionResult, key: string): string {
  const error = result.errors?.find((e) => e.path?.[0] === key || e.path === undefined);
  return error ? clientErrorCode(error) : 'ok';
}

/** The id of the thread a mutation returned (`{ thread { id } }`), when selected. */
function returnedThreadId(result: ExecutionResult, key: string): string | null {
  const payload = result.data?.[key] as { thread?: { id?: unknown } } | null | undefined;
  return typeof payload?.thread?.id === 'string' ? payload.thread.id : null;
}

interface Executed {
  identity?: Identity;
  request?: Request;
  document: DocumentNode;
  operationName?: string | null;
  variables: Record<string, unknown>;
}

/** The lines of one executed operation: every mutation field, and refused fields of others. */
function auditResult(audit: Audit, run: Executed, result: ExecutionResult): void {
  const operation = getOperationAST(run.document, run.operationName);
  if (!operation) return;
  const base = {
    transport: (run.request ? 'http' : 'ws') as Transport,
    identity: run.identity ?? null,
    operation: operation.name?.value ?? null,
    requestId: requestIdOf(run.request),
  };
  if (operation.operation === 'mutation') {
    for (const field of rootFields(operation)) {
      const key = field.alias?.value ?? field.name.value;
      const threadId = threadIdOf(field, run.variables) ?? returnedThreadId(result, key);
      audit.log({ ...base, field: field.name.value, threadId, outcome: outcomeOf(result, key) });
    }
    return;
  }
  for (const error of result.errors ?? []) {
    const code = clientErrorCode(error);
    if (!REFUSALS.has(code)) continue;
    audit.log({ ...base, field: String(error.path?.[0] ?? '') || null, outcome: code });
  }
}

type AuditedContext = { identity?: Identity; request?: Request };

/** The name of a document's first operation, read without parsing (for audit lines only). */
const OPERATION_NAME =
  /^\s*(?:#[^\n]*\n\s*)*(?:query|mutation|subscription)\s+([_A-Za-z]\w{0,127})/;

/**
 * Audits GraphQL operations (HTTP, SSE and graphql-ws): each executed mutation field, refused
 * fields of queries and subscriptions, and HTTP requests answered 401, 403 or 429 before any
 * execution (bad credentials, a missing CSRF header) unless already audited where refused.
 */
export function auditPlugin(audit: Audit): Plugin {
  const operations = new WeakMap<Request, string>();
  const executed = (args: {
    contextValue: unknown;
    document: DocumentNode;
    operationName?: string | null;
    variableValues?: Record<string, unknown> | null;
  }): Executed => {
    const context = args.contextValue as AuditedContext;
    return {
      identity: context.identity,
      request: context.request,
      document: args.document,
      operationName: args.operationName,
      variables: args.variableValues ?? {},
    };
  };
  const isResult = (value: unknown): value is ExecutionResult =>
    typeof value === 'object' && value !== null && !(Symbol.asyncIterator in value);
  return {
    onParams({ params, request }) {
      // Refused requests are not parsed (authentication comes first): the name as written.
      const name = params.operationName ?? OPERATION_NAME.exec(params.query ?? '')?.[1];
      if (name) operations.set(request, name);
    },
    onParse({ context }) {
      const { request } = context as AuditedContext;
      if (!request || operations.has(request)) return undefined;
      return ({ result }) => {
        if (!result || result instanceof Error || !('kind' in result)) return;
        const name = getOperationAST(result)?.name?.value;
        if (name) operations.set(request, name);
      };
    },
    onExecute({ args }) {
      const run = executed(args);
      return {
        onExecuteDone({ result }) {
          if (isResult(result)) auditResult(audit, run, result);
        },
      };
    },
    onSubscribe({ args }) {
      const run = executed(args);
      return {
        onSubscribeResult({ result }) {
          if (isResult(result)) auditResult(audit, run, result);
        },
      };
    },
    onResponse({ request, response }) {
      const outcome = HTTP_REFUSALS[response.status];
      if (!outcome || audit.logged(request)) return;
      const authorization = request.headers.get('authorization');
      audit.log({
        transport: 'http',
        identity: null,
        attempted: attemptedMethod(authorization),
        operation: operations.get(request) ?? null,
        outcome,
        status: response.status,
        reason: authorization ? 'credentials refused' : 'no credentials',
        requestId: requestIdOf(request),
      });
    },
  };
}
