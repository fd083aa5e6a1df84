/**
 * Tool-call arguments as the contract stores them (ToolCallItem.arguments: parsed JSON, or the
 * original string when it is not valid JSON), the same rule as item-types.ts parseToolArguments.
 */
import { parseToolArguments } from '../items/item-types.js';
import type { JsonValue } from '../json.js';

/** Parsed arguments; the string itself when it does not parse. */
export function parseArguments(value: JsonValue): JsonValue {
  return parseToolArguments(value) as JsonValue;
}
