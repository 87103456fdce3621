import type { JSONValue } from '../../json.js';
import type { TokenUsage } from './usage.js';

export type RunStatus = 'running' | 'finished' | 'error' | 'cancelled';

interface SDKMessageBase {
  agent_id: string;
  run_id: string;
}

export type AssistantContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: JSONValue };

/** What `run.stream()` yields, discriminated on `type`. */
export type SDKMessage =
  | (SDKMessageBase & { type: 'system'; subtype: 'init'; model: string; tools: string[]; mode: string; cwd: string })
  | (SDKMessageBase & { type: 'user'; message: { role: 'user'; content: string } })
  | (SDKMessageBase & { type: 'assistant'; message: { role: 'assistant'; content: AssistantContentBlock[] }; incomplete?: boolean })
  | (SDKMessageBase & { type: 'thinking'; text: string })
  | (SDKMessageBase & {
      type: 'tool_call';
      call_id: string;
      name: string;
      status: 'running' | 'completed' | 'error';
      args: JSONValue;
      result?: string;
      truncated?: boolean;
    })
  | (SDKMessageBase & { type: 'status'; status: RunStatus | 'mode-changed' | 'retrying' | 'compacting'; message?: string; mode?: string; error?: { message: string; code: string } })
  | (SDKMessageBase & { type: 'task'; call_id: string; subagent_type: string; status: 'running' | 'completed' | 'error'; text?: string })
  | (SDKMessageBase & { type: 'request'; request_id: string })
  | (SDKMessageBase & { type: 'usage'; usage: TokenUsage });

export type SDKMessageType = SDKMessage['type'];

/** Fine-grained updates for `onDelta` and UIs. */
export type InteractionUpdate =
  | { type: 'text-delta'; text: string }
  | { type: 'thinking-delta'; text: string }
  | { type: 'thinking-completed'; thinkingDurationMs: number }
  | { type: 'tool-call-started'; callId: string; toolName: string; args: JSONValue }
  | { type: 'partial-tool-call'; callId: string; toolName: string; argsTextDelta: string }
  /** One nested level of a subagent's updates. */
  | { type: 'tool-call-delta'; callId: string; update: InteractionUpdate }
  | { type: 'tool-call-completed'; callId: string; toolName: string; isError: boolean; result: string; truncated?: boolean }
  | { type: 'token-delta'; tokens: number }
  | { type: 'step-started'; step: number; mode: string }
  | { type: 'step-completed'; step: number; finishReason: string }
  | { type: 'turn-ended'; usage: TokenUsage }
  | { type: 'user-message-appended'; text: string }
  | { type: 'summary-started' }
  | { type: 'summary'; text: string }
  | { type: 'summary-completed'; tokensBefore: number; tokensAfter: number }
  | { type: 'shell-output-delta'; callId: string; stream: 'stdout' | 'stderr'; text: string }
  | { type: 'mode-changed'; from: string; to: string; source: 'user' | 'tool' | 'plan-approval' }
  | { type: 'todos-updated'; todos: Array<{ id: string; content: string; status: string }> }
  | { type: 'plan-created'; plan: JSONValue }
  | { type: 'retry'; attempt: number; delayMs: number; reason: string };

export type InteractionUpdateType = InteractionUpdate['type'];

/** One step of an agent turn as `run.conversation()` returns it. */
export type ConversationStep =
  | { type: 'assistantMessage'; text: string }
  | { type: 'thinkingMessage'; text: string }
  | { type: 'toolCall'; callId: string; name: string; args: JSONValue; result?: string; isError?: boolean };

export type ConversationTurn =
  | { type: 'agentConversationTurn'; userMessage: string; steps: ConversationStep[] }
  | { type: 'shellConversationTurn'; command: string; stdout: string; stderr: string; exitCode: number | null };

/** One entry of a run's append-only event log: what stream() replays and onDelta receives. */
export type RunEvent =
  | { kind: 'message'; message: SDKMessage }
  | { kind: 'update'; update: InteractionUpdate };
