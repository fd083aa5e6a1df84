/**
 * Request-shape checks for modelContext, written from the providers' documented rules:
 * - Anthropic Messages (docs.anthropic.com, "Messages" and "Tool use"): `messages` of role user or
 *   assistant only, consecutive turns alternate; each message {role, content}; every tool_use in
 *   an assistant turn (the last one too) is answered by a tool_result in the very next (user)
 *   message, whose
 *   tool_result blocks come first in its content; tool_use ids are unique; text blocks non-empty;
 *   `system` a string or text blocks.
 * - OpenAI Chat Completions (platform.openai.com, "Function calling"): an assistant message with
 *   tool_calls is followed by one tool message per call id, before any other message (the last
 *   one too); each tool message answers a call of that assistant message.
 * - OpenAI Responses (platform.openai.com, "Function calling"): every function_call_output has a
 *   function_call with its call_id earlier in the input, and every function_call an output.
 * Each returns the list of problems found ([] when the request is valid).
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The content block types the Messages API documents for request messages. */
const ANTHROPIC_BLOCK_TYPES = new Set([
  'text',
  'image',
  'document',
  'search_result',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
]);

export function checkAnthropic(request: Obj): string[] {
  const problems: string[] = [];
  const { system, messages } = request;
  if (system !== undefined && typeof system !== 'string' && !Array.isArray(system)) {
    problems.push('system type');
  }
  if (!Array.isArray(messages)) return [...problems, 'messages is not a list'];
  const ids = new Set<string>();
  messages.forEach((m: unknown, i) => {
    if (!isObj(m)) {
      problems.push(`messages[${i}] not an object`);
      return;
    }
    if (Object.keys(m).join() !== 'role,content') problems.push(`messages[${i}] keys`);
    if (m.role !== 'user' && m.role !== 'assistant') problems.push(`messages[${i}] role ${m.role}`);
    const prev = messages[i - 1] as Obj | undefined;
    if (prev && prev.role === m.role) problems.push(`messages[${i}] same role as before`);
    const blocks = Array.isArray(m.content) ? (m.content as Obj[]) : [];
    if (!Array.isArray(m.content) && typeof m.content !== 'string') {
      problems.push(`messages[${i}] content`);
    }
    blocks.forEach((b, k) => {
      if (!ANTHROPIC_BLOCK_TYPES.has(String(b.type))) {
        problems.push(`messages[${i}][${k}] unknown block type ${b.type}`);
      }
      if (b.type === 'text' && b.text === '') problems.push(`messages[${i}][${k}] empty text`);
      if (b.type === 'tool_use') {
        if (ids.has(b.id as string)) problems.push(`messages[${i}] tool_use id ${b.id} twice`);
        ids.add(b.id as string);
      }
    });
    const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id);
    // The last message's calls too: the API refuses a tool_use without its tool_result.
    if (uses.length > 0) {
      const next = messages[i + 1] as Obj | undefined;
      const answers = Array.isArray(next?.content) ? (next.content as Obj[]) : [];
      const answered = new Set(
        answers.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id),
      );
      for (const id of uses) {
        if (!answered.has(id)) problems.push(`messages[${i}] tool_use ${id} unanswered next`);
      }
    }
    if (m.role === 'user') {
      const firstOther = blocks.findIndex((b) => b.type !== 'tool_result');
      const lastResult = blocks.map((b) => b.type).lastIndexOf('tool_result');
      if (firstOther !== -1 && lastResult > firstOther) {
        problems.push(`messages[${i}] tool_result after other content`);
      }
      const prevUses = new Set(
        (Array.isArray(prev?.content) ? (prev.content as Obj[]) : [])
          .filter((b) => b.type === 'tool_use')
          .map((b) => b.id),
      );
      for (const b of blocks) {
        if (b.type === 'tool_result' && !prevUses.has(b.tool_use_id)) {
          problems.push(`messages[${i}] tool_result ${b.tool_use_id} without its tool_use before`);
        }
      }
    }
  });
  return problems;
}

export function checkChat(request: Obj): string[] {
  const problems: string[] = [];
  const { messages } = request;
  if (!Array.isArray(messages)) return ['messages is not a list'];
  const roles = new Set(['system', 'developer', 'user', 'assistant', 'tool']);
  let waiting: string[] = [];
  messages.forEach((m: Obj, i) => {
    if (!roles.has(m.role as string)) problems.push(`messages[${i}] role ${m.role}`);
    if (m.role === 'tool') {
      const k = waiting.indexOf(m.tool_call_id as string);
      if (k === -1) problems.push(`messages[${i}] answers no waiting call (${m.tool_call_id})`);
      else waiting.splice(k, 1);
      if (typeof m.content !== 'string' && !Array.isArray(m.content)) {
        problems.push(`messages[${i}] tool content`);
      }
      return;
    }
    if (waiting.length > 0) problems.push(`messages[${i}] before the results of ${waiting}`);
    waiting = [];
    if (m.role === 'assistant' && 'tool_calls' in m && !Array.isArray(m.tool_calls)) {
      problems.push(`messages[${i}] tool_calls is not a list`);
    }
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      waiting = (m.tool_calls as Obj[]).map((c) => c.id as string);
      if (waiting.length === 0) problems.push(`messages[${i}] empty tool_calls`);
      for (const c of m.tool_calls as Obj[]) {
        const fn = c.function as Obj;
        if (c.type !== 'function' || typeof fn?.arguments !== 'string') {
          problems.push(`messages[${i}] tool call shape`);
        }
      }
    }
  });
  if (waiting.length > 0) problems.push(`the calls ${waiting} are never answered`);
  return problems;
}

export function checkResponses(request: Obj): string[] {
  const problems: string[] = [];
  const { input } = request;
  if (!Array.isArray(input)) return ['input is not a list'];
  const calls = new Set<string>();
  input.forEach((item: Obj, i) => {
    if (!isObj(item) || (typeof item.type !== 'string' && typeof item.role !== 'string')) {
      problems.push(`input[${i}] neither typed nor a message`);
      return;
    }
    if (item.type === 'function_call') calls.add(item.call_id as string);
    if (item.type === 'function_call_output' && !calls.has(item.call_id as string)) {
      problems.push(`input[${i}] output for ${item.call_id} before its call`);
    }
  });
  // Every function_call needs its function_call_output ("No tool output found for function call").
  const outputs = new Set(
    input.filter((x: Obj) => x?.type === 'function_call_output').map((x: Obj) => x.call_id),
  );
  for (const id of calls) if (!outputs.has(id)) problems.push(`function_call ${id} never answered`);
  return problems;
}
