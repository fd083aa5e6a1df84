/**
 * The fixture files of ../shared/fixtures as sources for the transcript tests, each with its
 * conversations as encode must give them back, and a UIMessage sample (no fixture holds one).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptFormat } from '../src/transcripts/types.js';

export const FIXTURES = join(import.meta.dirname, '../../shared/fixtures');
export const text = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');
const fixture = (path: string): unknown => JSON.parse(text(path));

export type Body = Record<string, unknown>;
export interface Cassettes {
  cassettes: { interactions: { request_body: Body; response_body: Body }[] }[];
}

/** One source file: its parsed value, and each conversation as encode must give it back. */
export interface Source {
  file: string;
  format: TranscriptFormat;
  value: unknown;
  expected: unknown[];
}

export function sources(): Source[] {
  const tau = fixture('openai-chat/tau-bench-gpt-4o-airline-sample.json') as { traj: unknown }[];
  const pyChat = fixture('openai-chat/pydantic-ai-gpt-4o-conversations.json') as Body[];
  const swe = fixture('trajectories/swe-agent-marshmallow-1867-function-calling.traj') as Body;
  const ant = fixture('anthropic/pydantic-ai-anthropic-messages-cassettes.json') as Cassettes;
  const resp = fixture('responses/pydantic-ai-openai-responses-cassettes.json') as Cassettes;
  const exchanges = (c: Cassettes) => c.cassettes.flatMap((x) => x.interactions);
  const ccText = text('anthropic/claude-code-transcript-python-to-rust-port.jsonl');
  const ccLines = ccText
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
  return [
    { file: 'tau-bench', format: 'OPENAI_CHAT', value: tau, expected: tau.map((r) => r.traj) },
    {
      file: 'pydantic-ai chat',
      format: 'OPENAI_CHAT',
      value: pyChat,
      expected: pyChat.map((c) => c.messages),
    },
    { file: 'swe-agent', format: 'OPENAI_CHAT', value: swe, expected: [swe.history] },
    {
      file: 'anthropic cassettes',
      format: 'ANTHROPIC_MESSAGES',
      value: ant,
      // Each exchange is one conversation: the request's history, then the response message.
      expected: exchanges(ant).map(({ request_body: rq, response_body: rs }) => ({
        ...(rq.system === undefined ? {} : { system: rq.system }),
        messages: [...(rq.messages as unknown[]), rs],
      })),
    },
    {
      file: 'responses cassettes',
      format: 'OPENAI_RESPONSES',
      value: resp,
      expected: exchanges(resp).map(({ request_body: rq, response_body: rs }) => [
        ...(rq.input as unknown[]),
        ...(rs.output as unknown[]),
      ]),
    },
    { file: 'claude code', format: 'CLAUDE_CODE_JSONL', value: ccLines, expected: [ccLines] },
    { file: 'ai sdk', format: 'AI_SDK_UI_MESSAGES', value: UI_MESSAGES, expected: [UI_MESSAGES] },
  ];
}

/** A UIMessage list as an app on AI SDK 5 persists it (no fixture exists for this format). */
export const UI_MESSAGES = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather in Paris?' }] },
  {
    id: 'a1',
    role: 'assistant',
    metadata: { model: 'claude-sonnet-4-5' },
    parts: [
      { type: 'step-start' },
      {
        type: 'reasoning',
        text: 'Look it up.',
        providerMetadata: { anthropic: { signature: 'EqQBCkYIBxgC' } },
        state: 'done',
      },
      {
        type: 'tool-weather',
        toolCallId: 'toolu_1',
        state: 'output-available',
        input: { city: 'Paris' },
        output: { tempC: 21 },
      },
      { type: 'step-start' },
      { type: 'text', text: 'It is 21 °C.', state: 'done' },
    ],
  },
  { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And Oslo?' }] },
  {
    id: 'a2',
    role: 'assistant',
    parts: [
      {
        type: 'tool-weather',
        toolCallId: 'toolu_2',
        state: 'output-error',
        input: { city: 'Oslo' },
        errorText: 'timeout',
      },
    ],
  },
  { id: 'a3', role: 'assistant', parts: [] },
];
