/**
 * The item types: the body field of NewItem that writes each one, the zod schema that checks a
 * body beyond what GraphQL coercion already checked, and how a body becomes the stored `data`.
 * Stored `data` uses the GraphQL field names (contract: ConversationItem.data); null fields
 * are left out.
 */
import { z } from 'zod';

/**
 * The known item types (contract: ConversationItem.type), each with its GraphQL object type
 * and the NewItem body field that writes it (none for compaction markers, which only
 * addCompaction writes). Every other list of item types derives from this table.
 */
export const ITEM_KINDS = [
  { type: 'message', graphqlType: 'MessageItem', bodyField: 'message' },
  { type: 'tool_call', graphqlType: 'ToolCallItem', bodyField: 'toolCall' },
  { type: 'tool_result', graphqlType: 'ToolResultItem', bodyField: 'toolResult' },
  { type: 'reasoning', graphqlType: 'ReasoningItem', bodyField: 'reasoning' },
  { type: 'error', graphqlType: 'ErrorItem', bodyField: 'error' },
  { type: 'compaction', graphqlType: 'CompactionItem', bodyField: null },
  { type: 'resource_event', graphqlType: 'ResourceEventItem', bodyField: 'resourceEvent' },
  { type: 'slash_command', graphqlType: 'SlashCommandItem', bodyField: 'slashCommand' },
  { type: 'terminal', graphqlType: 'TerminalItem', bodyField: 'terminal' },
] as const;

type ItemKind = (typeof ITEM_KINDS)[number];
export type KnownItemType = ItemKind['type'];
/** GraphQL object types of items: the known ones, and OtherItem for any other type. */
export type ItemTypeName = ItemKind['graphqlType'] | 'OtherItem';

/** Known item types, in contract order. */
export const KNOWN_ITEM_TYPES: readonly KnownItemType[] = ITEM_KINDS.map((k) => k.type);

/** The GraphQL object type of a stored item type. */
export function itemTypeNameOf(type: string): ItemTypeName {
  // A linear scan of nine entries; a map keyed by type would need own-key checks for names
  // such as "constructor", which an OtherItem may use.
  return ITEM_KINDS.find((k) => k.type === type)?.graphqlType ?? 'OtherItem';
}

/** Item statuses (contract: ItemStatus); the GraphQL enum derives from it. */
export const ITEM_STATUSES = ['COMPLETED', 'IN_PROGRESS', 'ACTION_REQUIRED'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** Types an OtherItemInput may name: snake_case, not a known type (contract: OtherItemInput.type). */
export const OTHER_TYPE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

const shortText = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const json = z.unknown();

/** A token count: a whole number from 0 to 2^53-1 (GraphQL's Int caps it lower; imports do not). */
const tokenCount = z
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER, 'must be at most 2^53-1')
  .nullish();

const tokenUsage = z
  .object({ inputTokens: tokenCount, outputTokens: tokenCount, totalTokens: tokenCount })
  .nullish();

/** One zod schema per NewItem body field; keys are the GraphQL input field names. */
export const bodySchemas = {
  message: z.object({
    role: shortText(64).min(1, 'must not be empty'),
    content: z.string().nullish(),
    parts: json.nullish(),
    usage: tokenUsage,
  }),
  toolCall: z.object({
    callId: shortText(256).min(1, 'must not be empty'),
    name: shortText(256).min(1, 'must not be empty'),
    arguments: json.refine((v) => v !== undefined, 'is required'),
  }),
  toolResult: z.object({
    callId: shortText(256).min(1, 'must not be empty'),
    name: shortText(256).nullish(),
    output: json.refine((v) => v !== undefined, 'is required'),
    isError: z.boolean().nullish(),
  }),
  reasoning: z.object({
    text: z.string(),
    // Sent back to the provider unchanged (contract: ReasoningItem.signature, encryptedContent).
    signature: z.string().nullish(),
    encryptedContent: z.string().nullish(),
    summary: json.nullish(),
  }),
  error: z.object({ reason: z.string(), code: shortText(256).nullish() }),
  resourceEvent: z.object({
    kind: shortText(256).min(1, 'must not be empty'),
    payload: json.nullish(),
  }),
  slashCommand: z.object({
    command: shortText(1024).min(1, 'must not be empty'),
    args: z.string().nullish(),
  }),
  terminal: z.object({ stream: z.enum(['stdin', 'stdout', 'stderr']), text: z.string() }),
  other: z.object({
    type: z
      .string()
      .regex(OTHER_TYPE_PATTERN, 'must match ^[a-z][a-z0-9_]{0,63}$')
      .refine(
        (t) => !(KNOWN_ITEM_TYPES as readonly string[]).includes(t),
        'is a known item type; use its own field (compaction markers come from addCompaction)',
      ),
    data: json.refine((v) => v !== undefined, 'is required'),
  }),
} as const;

export type BodyField = keyof typeof bodySchemas;
export const BODY_FIELDS = Object.keys(bodySchemas) as BodyField[];

/** The stored type each body field writes (`other` writes its own type). */
export const TYPE_OF_BODY = Object.fromEntries(
  // `satisfies`: every bodyField of ITEM_KINDS is a NewItem body field (a key of bodySchemas).
  ITEM_KINDS.flatMap((k) =>
    k.bodyField ? [[k.bodyField satisfies Exclude<BodyField, 'other'>, k.type]] : [],
  ),
) as Record<Exclude<BodyField, 'other'>, KnownItemType>;
for (const field of BODY_FIELDS) {
  // A body field without a row in ITEM_KINDS would write items of no known type.
  if (field !== 'other' && !Object.hasOwn(TYPE_OF_BODY, field)) {
    throw new Error(`body field ${field} has no row in ITEM_KINDS`);
  }
}

/**
 * Tool call arguments as the contract stores them: parsed when given as a JSON string (as
 * model APIs send them), the original string when it is not valid JSON, anything else as is.
 */
export function parseToolArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Drops null and undefined members: "null fields may be left out" of data. */
function compact(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

/**
 * Turns a validated body into the stored type, data and callId.
 * @param field the body field that was set
 * @param body the value zod accepted
 */
export function bodyToData(
  field: BodyField,
  body: Record<string, unknown>,
): { type: string; data: unknown; callId: string | null } {
  if (field === 'other') return { type: body.type as string, data: body.data, callId: null };
  const type = TYPE_OF_BODY[field];
  if (field === 'message' && body.usage) {
    const usage = compact(body.usage as Record<string, unknown>);
    return {
      type,
      data: compact({ ...body, usage: Object.keys(usage).length ? usage : null }),
      callId: null,
    };
  }
  if (field === 'toolResult') {
    return {
      type,
      data: compact({ ...body, isError: body.isError ?? false }),
      callId: body.callId as string,
    };
  }
  if (field === 'toolCall') {
    return {
      type,
      data: compact({ ...body, arguments: parseToolArguments(body.arguments) }),
      callId: body.callId as string,
    };
  }
  return { type, data: compact(body), callId: null };
}

/**
 * The token counts of one stored item, as Item's usage columns and Thread.usage count them.
 * totalTokens is the reported total, else input + output (the parts reported).
 */
export interface ItemUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number;
}

/** Reads one token count of a usage object: a whole number from 0 to 2^53-1, else none. */
function tokenCountOf(usage: Record<string, unknown>, key: string): number | null {
  const value = usage[key];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/**
 * The usage a stored item reports (contract: Thread.usage counts message items only): null for
 * other types, and for a message without usage or with no count in it. When the message gives
 * no totalTokens, the total is inputTokens + outputTokens (either alone when only one is given).
 * @param data the item's stored data (MessageItem: usage is {inputTokens?, outputTokens?,
 *   totalTokens?})
 * Counts that are not whole numbers from 0 to 2^53-1 are ignored (prepareItem refuses them).
 */
export function usageOf(type: string, data: unknown): ItemUsage | null {
  if (type !== 'message' || typeof data !== 'object' || data === null) return null;
  const usage = (data as { usage?: unknown }).usage;
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) return null;
  const record = usage as Record<string, unknown>;
  const inputTokens = tokenCountOf(record, 'inputTokens');
  const outputTokens = tokenCountOf(record, 'outputTokens');
  const reported = tokenCountOf(record, 'totalTokens');
  if (inputTokens === null && outputTokens === null && reported === null) return null;
  return {
    inputTokens,
    outputTokens,
    totalTokens: reported ?? (inputTokens ?? 0) + (outputTokens ?? 0),
  };
}

/** Usage sums over items (contract: UsageTotals); also a delta added to or taken from a thread. */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Message items that reported usage. */
  messagesWithUsage: number;
}

/** Totals of nothing. */
export const NO_USAGE: UsageTotals = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  totalTokens: 0,
  messagesWithUsage: 0,
});

/** The sums of the usage of some items (items without usage add nothing). */
export function sumUsage(usages: Iterable<ItemUsage | null | undefined>): UsageTotals {
  const sum = { ...NO_USAGE };
  for (const u of usages) {
    if (!u) continue;
    sum.inputTokens += u.inputTokens ?? 0;
    sum.outputTokens += u.outputTokens ?? 0;
    sum.totalTokens += u.totalTokens;
    sum.messagesWithUsage += 1;
  }
  return sum;
}

/** True when a delta changes nothing. */
export function isNoUsage(u: UsageTotals): boolean {
  return (
    u.messagesWithUsage === 0 && u.inputTokens === 0 && u.outputTokens === 0 && u.totalTokens === 0
  );
}
