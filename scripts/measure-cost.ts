/**
 * Prints the cost (src/server/cost.ts) of every codegen'd client operation (examples/ and
 * test/), with page variables left out (default page, 50) and at the largest page (500), and of
 * hostile operations, as a Markdown table: the numbers MAX_QUERY_COST is chosen from.
 * Usage: npx tsx scripts/measure-cost.ts [more.graphql ...] (each file's operations are added)
 */
import { readFileSync } from 'node:fs';
import {
  type DocumentNode,
  type GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  type OperationDefinitionNode,
  parse,
  typeFromAST,
} from 'graphql';
import * as examples from '../examples/generated/graphql.js';
import { schema } from '../src/schema/index.js';
import { operationCost } from '../src/server/cost.js';
import * as tests from '../test/generated/graphql.js';

const MAX_PAGE = 500;
const context = { limits: { maxPageSize: MAX_PAGE } };
const PAGE_VARIABLES = new Set(['first', 'last', 'n']);

const bigItems = (alias: number) =>
  `a${alias}: thread(id: "t") { items(first: 500) { edges { node { ... on ConversationItem { id seq type data } } } } }`;

const HOSTILE: Record<string, { query: string; variables?: Record<string, unknown> }> = {
  '30 aliases × items(first: 500) { id seq type data }': {
    query: `{ ${Array.from({ length: 30 }, (_, i) => bigItems(i)).join(' ')} }`,
  },
  'one items(first: 500) { id seq type data }': { query: `{ ${bigItems(0)} }` },
  'threads(first: 500) { items(first: 500) { data } }': {
    query: `{ threads(first: 500) { edges { node { items(first: 500) { edges { node { ... on ConversationItem { data } } } } } } } }`,
  },
  'nodes(ids: 100 ids) { id data }': {
    query: `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on ConversationItem { data } } }`,
    variables: { ids: Array.from({ length: 100 }, (_, i) => `t:${i}`) },
  },
  '30 aliases × nodes(100 ids) { id data }': {
    query: `query($ids: [ID!]!) { ${Array.from({ length: 30 }, (_, i) => `n${i}: nodes(ids: $ids) { id ... on ConversationItem { data } }`).join(' ')} }`,
    variables: { ids: Array.from({ length: 100 }, (_, i) => `t:${i}`) },
  },
  'threads(first: 50) { context { data } }': {
    query: `{ threads { edges { node { context { ... on ConversationItem { data } } } } } }`,
  },
};

const SCALARS: Record<string, unknown> = {
  Int: 1,
  Float: 1,
  Boolean: false,
  DateTime: '2024-01-01T00:00:00Z',
  JSON: {},
};

/** A value that coerces to `type` (required input fields filled, lists of one). */
function placeholder(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return placeholder(type.ofType);
  if (isListType(type)) return [placeholder(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0]?.value;
  if (isInputObjectType(type)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      if (isNonNullType(field.type)) value[field.name] = placeholder(field.type);
    }
    return value;
  }
  return SCALARS[type.name] ?? 'x';
}

/**
 * Variables for `operation`: required ones given placeholders, every page-size variable set to
 * `size` (left out when null: the default page).
 */
function pageVariables(
  operation: OperationDefinitionNode,
  size: number | null,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (PAGE_VARIABLES.has(name)) {
      if (size !== null) variables[name] = size;
    } else if (type && isNonNullType(type)) variables[name] = placeholder(type);
  }
  return variables;
}

/** The cost, or what refused it. */
function cost(document: DocumentNode, variables: Record<string, unknown>): string {
  const result = operationCost({
    schema,
    document,
    variableValues: variables,
    contextValue: context,
  });
  if ('cost' in result) return String(result.cost);
  if ('refused' in result) return `refused: ${result.refused.code}`;
  return `(${result.skipped})`;
}

const rows: string[] = [
  '| operation | cost (default page) | cost (page 500) |',
  '| --- | --- | --- |',
];
const documents: [string, DocumentNode][] = [
  ...Object.entries(examples).map(([name, doc]) => [`examples: ${name}`, doc] as [string, unknown]),
  ...Object.entries(tests).map(([name, doc]) => [`test: ${name}`, doc] as [string, unknown]),
]
  .filter(
    ([name, doc]) => name.endsWith('Document') && (doc as DocumentNode)?.kind === Kind.DOCUMENT,
  )
  .map(([name, doc]) => [name.replace(/Document$/, ''), doc as DocumentNode]);
for (const file of process.argv.slice(2)) documents.push([file, parse(readFileSync(file, 'utf8'))]);

for (const [name, document] of documents) {
  for (const operation of document.definitions) {
    if (operation.kind !== Kind.OPERATION_DEFINITION) continue;
    const single: DocumentNode = {
      kind: Kind.DOCUMENT,
      definitions: [
        operation,
        ...document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION),
      ],
    };
    const label = operation.name ? `${name.split(':')[0]}: ${operation.name.value}` : name;
    const hasPage = (operation.variableDefinitions ?? []).some((d) =>
      PAGE_VARIABLES.has(d.variable.name.value),
    );
    const atDefault = cost(single, pageVariables(operation, null));
    const atMax = hasPage ? cost(single, pageVariables(operation, MAX_PAGE)) : '-';
    rows.push(`| ${label} | ${atDefault} | ${atMax} |`);
  }
}
for (const [name, { query, variables }] of Object.entries(HOSTILE)) {
  rows.push(`| hostile: ${name} | ${cost(parse(query), variables ?? {})} | - |`);
}
console.log(rows.join('\n'));
