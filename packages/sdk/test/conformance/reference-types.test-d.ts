// The reference SDK's documented types (local runtime), written out here as the document states
// them, each checked against Cairn's exported type in both directions: code typed for the reference
// compiles against Cairn, and Cairn's values satisfy code that expects the reference's shapes.
// Where Cairn adds update types of its own (InteractionUpdate), only the reference-to-Cairn
// direction holds, and that is checked.
import { describe, expectTypeOf, it } from 'vitest';
import type * as Cairn from '../../src/index.js';

namespace Reference {
  export interface TokenUsage {
    inputTokens: number;
    outputTokens: number;
    cacheReadTokens: number;
    cacheWriteTokens: number;
    totalTokens: number;
    reasoningTokens?: number;
  }
  export type RunStatus = 'running' | 'finished' | 'error' | 'cancelled';
  export type RunOperation = 'stream' | 'wait' | 'cancel' | 'conversation';
  export interface RunError {
    message: string;
    code?: string;
  }
  export interface ModelParameterValue {
    id: string;
    value: string;
  }
  export interface ModelSelection {
    id: string;
    params?: ModelParameterValue[];
  }
  export interface ModelParameterDefinition {
    id: string;
    displayName?: string;
    values: Array<{ value: string; displayName?: string }>;
  }
  export interface ModelVariant {
    params: ModelParameterValue[];
    displayName: string;
    description?: string;
    isDefault?: boolean;
  }
  export interface ModelListItem {
    id: string;
    displayName: string;
    description?: string;
    aliases?: string[];
    parameters?: ModelParameterDefinition[];
    variants?: ModelVariant[];
  }
  export interface RunResult {
    id: string;
    requestId?: string;
    status: 'finished' | 'error' | 'cancelled';
    result?: string;
    error?: RunError;
    model?: ModelSelection;
    durationMs?: number;
    usage?: TokenUsage;
  }
  export interface TextBlock {
    type: 'text';
    text: string;
  }
  export interface ToolUseBlock {
    type: 'tool_use';
    id: string;
    name: string;
    input: unknown;
  }
  interface Base {
    agent_id: string;
    run_id: string;
  }
  export interface SDKSystemMessage extends Base {
    type: 'system';
    subtype?: 'init';
    model?: ModelSelection;
    tools?: string[];
  }
  export interface SDKUserMessageEvent extends Base {
    type: 'user';
    message: { role: 'user'; content: TextBlock[] };
  }
  export interface SDKAssistantMessage extends Base {
    type: 'assistant';
    message: { role: 'assistant'; content: Array<TextBlock | ToolUseBlock> };
  }
  export interface SDKThinkingMessage extends Base {
    type: 'thinking';
    text: string;
    thinking_duration_ms?: number;
  }
  export interface SDKToolUseMessage extends Base {
    type: 'tool_call';
    call_id: string;
    name: string;
    status: 'running' | 'completed' | 'error';
    args?: unknown;
    result?: unknown;
    truncated?: { args?: boolean; result?: boolean };
  }
  export interface SDKStatusMessage extends Base {
    type: 'status';
    status: 'CREATING' | 'RUNNING' | 'FINISHED' | 'ERROR' | 'CANCELLED' | 'EXPIRED';
    message?: string;
  }
  export interface SDKTaskMessage extends Base {
    type: 'task';
    status?: string;
    text?: string;
  }
  export interface SDKUsageMessage extends Base {
    type: 'usage';
    usage: TokenUsage;
  }
  export type SDKMessage =
    | SDKSystemMessage
    | SDKUserMessageEvent
    | SDKAssistantMessage
    | SDKThinkingMessage
    | SDKToolUseMessage
    | SDKStatusMessage
    | SDKTaskMessage
    | { type: 'request'; agent_id: string; run_id: string; request_id: string }
    | SDKUsageMessage;

  export interface UserMessage {
    text: string;
  }
  export interface AssistantMessage {
    text: string;
  }
  export interface ThinkingMessage {
    text: string;
    thinkingDurationMs?: number;
  }
  export interface ShellCommand {
    command: string;
    workingDirectory?: string;
  }
  export interface ShellOutput {
    stdout: string;
    stderr: string;
    exitCode: number;
  }
  // ToolCall is internal-facing in the reference ("its shape is internal"): Cairn's own is used.
  export type ConversationStep =
    | { type: 'assistantMessage'; message: AssistantMessage }
    | { type: 'toolCall'; message: Cairn.ToolCall }
    | { type: 'thinkingMessage'; message: ThinkingMessage };
  export interface AgentConversationTurn {
    userMessage?: UserMessage;
    steps: ConversationStep[];
  }
  export interface ShellConversationTurn {
    shellCommand?: ShellCommand;
    shellOutput?: ShellOutput;
  }
  export type ConversationTurn = { type: 'agentConversationTurn'; turn: AgentConversationTurn } | { type: 'shellConversationTurn'; turn: ShellConversationTurn };

  export interface TextDeltaUpdate {
    type: 'text-delta';
    text: string;
  }
  export interface ThinkingDeltaUpdate {
    type: 'thinking-delta';
    text: string;
  }
  export interface ThinkingCompletedUpdate {
    type: 'thinking-completed';
    thinkingDurationMs: number;
  }
  export interface ToolCallStartedUpdate {
    type: 'tool-call-started';
    callId: string;
    toolCall: Cairn.ToolCall;
    modelCallId: string;
  }
  export interface PartialToolCallUpdate {
    type: 'partial-tool-call';
    callId: string;
    toolCall: Cairn.ToolCall;
    modelCallId: string;
  }
  export interface ToolCallCompletedUpdate {
    type: 'tool-call-completed';
    callId: string;
    toolCall: Cairn.ToolCall;
    modelCallId: string;
  }
  export interface TokenDeltaUpdate {
    type: 'token-delta';
    tokens: number;
  }
  export interface StepStartedUpdate {
    type: 'step-started';
    stepId: number;
  }
  export interface StepCompletedUpdate {
    type: 'step-completed';
    stepId: number;
    stepDurationMs: number;
  }
  export type NestedTaskUpdate =
    | TextDeltaUpdate
    | ToolCallStartedUpdate
    | ToolCallCompletedUpdate
    | ThinkingDeltaUpdate
    | ThinkingCompletedUpdate
    | PartialToolCallUpdate
    | StepStartedUpdate
    | StepCompletedUpdate;
  export interface ToolCallDeltaUpdate {
    type: 'tool-call-delta';
    callId: string;
    modelCallId: string;
    taskUpdate: NestedTaskUpdate;
  }
  export interface TurnEndedUpdate {
    type: 'turn-ended';
    usage?: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; reasoningTokens?: number };
  }
  export interface UserMessageAppendedUpdate {
    type: 'user-message-appended';
    userMessage: UserMessage;
  }
  export interface SummaryUpdate {
    type: 'summary';
    summary: string;
  }
  export interface SummaryStartedUpdate {
    type: 'summary-started';
  }
  export interface SummaryCompletedUpdate {
    type: 'summary-completed';
  }
  export interface ShellOutputDeltaUpdate {
    type: 'shell-output-delta';
    event: Record<string, unknown>;
  }
  export type InteractionUpdate =
    | TextDeltaUpdate
    | ThinkingDeltaUpdate
    | ThinkingCompletedUpdate
    | ToolCallStartedUpdate
    | ToolCallCompletedUpdate
    | ToolCallDeltaUpdate
    | PartialToolCallUpdate
    | TokenDeltaUpdate
    | StepStartedUpdate
    | StepCompletedUpdate
    | TurnEndedUpdate
    | UserMessageAppendedUpdate
    | SummaryUpdate
    | SummaryStartedUpdate
    | SummaryCompletedUpdate
    | ShellOutputDeltaUpdate;

  export interface UsageCost {
    rawCostCents: number;
    chargedCents: number;
  }
  export interface RunUsage {
    runId: string;
    usage: TokenUsage;
    cost?: UsageCost;
  }
  export interface AgentUsage {
    usage: TokenUsage;
    cost?: UsageCost;
    runs: RunUsage[];
  }
  export interface ListResult<T> {
    items: T[];
    nextCursor?: string;
  }
  export type SettingSource = 'project' | 'user' | 'team' | 'mdm' | 'plugins' | 'all';
  export type McpServerConfig =
    | { type?: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
    | { type?: 'http' | 'sse'; url: string; headers?: Record<string, string>; auth?: { CLIENT_ID: string; CLIENT_SECRET?: string; scopes?: string[] } };

  export interface Run {
    readonly id: string;
    readonly requestId?: string;
    readonly agentId: string;
    readonly status: RunStatus;
    readonly result?: string;
    readonly error?: RunError;
    readonly model?: ModelSelection;
    readonly durationMs?: number;
    readonly usage?: TokenUsage;
    readonly createdAt?: number;
    stream(): AsyncGenerator<SDKMessage, void>;
    wait(): Promise<RunResult>;
    cancel(): Promise<void>;
    conversation(): Promise<ConversationTurn[]>;
    supports(operation: RunOperation): boolean;
    unsupportedReason(operation: RunOperation): string | undefined;
    onDidChangeStatus(listener: (status: RunStatus) => void): () => void;
  }
  export interface SDKArtifact {
    path: string;
    sizeBytes: number;
    updatedAt: string;
  }
  export interface SDKUserMessage {
    text: string;
    images?: SDKImage[];
  }
  export interface SDKImageDimension {
    width: number;
    height: number;
  }
  export type SDKImage = { url: string; dimension?: SDKImageDimension } | { data: string; mimeType: string; dimension?: SDKImageDimension };
  export interface SDKAgent {
    readonly agentId: string;
    readonly model: ModelSelection | undefined;
    send(message: string | SDKUserMessage, options?: { model?: ModelSelection; mode?: string }): Promise<Run>;
    close(): void;
    reload(): Promise<void>;
    [Symbol.asyncDispose](): Promise<void>;
    listArtifacts(): Promise<SDKArtifact[]>;
    downloadArtifact(path: string): Promise<Buffer>;
  }
  export type SDKAgentInfo = {
    agentId: string;
    name: string;
    summary: string;
    lastModified: number;
    status?: 'running' | 'finished' | 'error';
    createdAt?: number;
    archived?: boolean;
  } & ({ runtime?: undefined } | { runtime: 'local'; cwd?: string });
  export type SDKJsonValue = string | number | boolean | null | SDKJsonValue[] | { [key: string]: SDKJsonValue };
  export type SDKCustomToolContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType?: string };
  export type SDKCustomToolResult = string | SDKJsonValue | { content: SDKCustomToolContent[]; isError?: boolean; structuredContent?: Record<string, SDKJsonValue> };
  export interface SDKCustomTool {
    description?: string;
    inputSchema?: Record<string, SDKJsonValue>;
    execute: (args: Record<string, SDKJsonValue>, context: { toolCallId?: string }) => SDKCustomToolResult | Promise<SDKCustomToolResult>;
  }
  export interface SDKError {
    readonly isRetryable: boolean;
    readonly code?: string;
    readonly status?: number;
    readonly cause?: unknown;
    readonly endpoint?: string;
    readonly requestId?: string;
    readonly operation?: string;
  }
}

describe('reference types, both ways', () => {
  it('usage, status and results', () => {
    expectTypeOf<Reference.TokenUsage>().toEqualTypeOf<Cairn.TokenUsage>();
    expectTypeOf<Reference.RunStatus>().toEqualTypeOf<Cairn.RunStatus>();
    expectTypeOf<Reference.RunOperation>().toEqualTypeOf<Cairn.RunOperation>();
    expectTypeOf<Reference.RunError>().toExtend<Cairn.RunError>();
    expectTypeOf<Cairn.RunError>().toExtend<Reference.RunError>();
    expectTypeOf<Reference.RunResult>().toExtend<Cairn.RunResult>();
    expectTypeOf<Cairn.RunResult>().toExtend<Reference.RunResult>();
    expectTypeOf<Reference.AgentUsage>().toExtend<Cairn.AgentUsage>();
    expectTypeOf<Cairn.AgentUsage>().toExtend<Reference.AgentUsage>();
    expectTypeOf<Reference.RunUsage>().toExtend<Cairn.RunUsage>();
    expectTypeOf<Cairn.RunUsage>().toExtend<Reference.RunUsage>();
    expectTypeOf<Reference.UsageCost>().toEqualTypeOf<Cairn.UsageCost>();
    expectTypeOf<Reference.ListResult<string>>().toEqualTypeOf<Cairn.ListResult<string>>();
  });

  it('model selection and the catalog', () => {
    expectTypeOf<Reference.ModelParameterValue>().toEqualTypeOf<Cairn.ModelParameterValue>();
    expectTypeOf<Reference.ModelSelection>().toEqualTypeOf<Cairn.ModelSelection>();
    expectTypeOf<Reference.ModelParameterDefinition>().toExtend<Cairn.ModelParameterDefinition>();
    expectTypeOf<Cairn.ModelParameterDefinition>().toExtend<Reference.ModelParameterDefinition>();
    expectTypeOf<Reference.ModelVariant>().toExtend<Cairn.ModelVariant>();
    expectTypeOf<Cairn.ModelVariant>().toExtend<Reference.ModelVariant>();
    expectTypeOf<Reference.ModelListItem>().toExtend<Cairn.ModelListItem>();
    expectTypeOf<Cairn.ModelListItem>().toExtend<Reference.ModelListItem>();
    expectTypeOf<Cairn.SDKModel>().toEqualTypeOf<Cairn.ModelListItem>();
  });

  it('stream messages', () => {
    expectTypeOf<Reference.TextBlock>().toEqualTypeOf<Cairn.TextBlock>();
    expectTypeOf<Reference.ToolUseBlock>().toEqualTypeOf<Cairn.ToolUseBlock>();
    expectTypeOf<Reference.SDKSystemMessage>().toExtend<Cairn.SDKSystemMessage>();
    expectTypeOf<Cairn.SDKSystemMessage>().toExtend<Reference.SDKSystemMessage>();
    expectTypeOf<Reference.SDKUserMessageEvent>().toEqualTypeOf<Cairn.SDKUserMessageEvent>();
    expectTypeOf<Reference.SDKAssistantMessage>().toExtend<Cairn.SDKAssistantMessage>();
    expectTypeOf<Cairn.SDKAssistantMessage>().toExtend<Reference.SDKAssistantMessage>();
    expectTypeOf<Reference.SDKThinkingMessage>().toEqualTypeOf<Cairn.SDKThinkingMessage>();
    expectTypeOf<Reference.SDKToolUseMessage>().toEqualTypeOf<Cairn.SDKToolUseMessage>();
    expectTypeOf<Reference.SDKStatusMessage>().toExtend<Cairn.SDKStatusMessage>();
    expectTypeOf<Cairn.SDKStatusMessage>().toExtend<Reference.SDKStatusMessage>();
    expectTypeOf<Reference.SDKTaskMessage>().toExtend<Cairn.SDKTaskMessage>();
    expectTypeOf<Cairn.SDKTaskMessage>().toExtend<Reference.SDKTaskMessage>();
    expectTypeOf<Reference.SDKUsageMessage>().toEqualTypeOf<Cairn.SDKUsageMessage>();
    expectTypeOf<Reference.SDKMessage>().toExtend<Cairn.SDKMessage>();
    expectTypeOf<Cairn.SDKMessage>().toExtend<Reference.SDKMessage>();
  });

  it('interaction updates', () => {
    expectTypeOf<Reference.TextDeltaUpdate>().toEqualTypeOf<Cairn.TextDeltaUpdate>();
    expectTypeOf<Reference.ThinkingDeltaUpdate>().toEqualTypeOf<Cairn.ThinkingDeltaUpdate>();
    expectTypeOf<Reference.ThinkingCompletedUpdate>().toEqualTypeOf<Cairn.ThinkingCompletedUpdate>();
    expectTypeOf<Reference.ToolCallStartedUpdate>().toEqualTypeOf<Cairn.ToolCallStartedUpdate>();
    expectTypeOf<Reference.ToolCallCompletedUpdate>().toEqualTypeOf<Cairn.ToolCallCompletedUpdate>();
    expectTypeOf<Reference.PartialToolCallUpdate>().toExtend<Cairn.PartialToolCallUpdate>();
    expectTypeOf<Cairn.PartialToolCallUpdate>().toExtend<Reference.PartialToolCallUpdate>();
    expectTypeOf<Reference.ToolCallDeltaUpdate>().toExtend<Cairn.ToolCallDeltaUpdate>();
    expectTypeOf<Cairn.ToolCallDeltaUpdate>().toExtend<Reference.ToolCallDeltaUpdate>();
    expectTypeOf<Reference.NestedTaskUpdate>().toExtend<Cairn.NestedTaskUpdate>();
    expectTypeOf<Cairn.NestedTaskUpdate>().toExtend<Reference.NestedTaskUpdate>();
    expectTypeOf<Reference.TokenDeltaUpdate>().toEqualTypeOf<Cairn.TokenDeltaUpdate>();
    expectTypeOf<Reference.StepStartedUpdate>().toExtend<Cairn.StepStartedUpdate>();
    expectTypeOf<Cairn.StepStartedUpdate>().toExtend<Reference.StepStartedUpdate>();
    expectTypeOf<Reference.StepCompletedUpdate>().toExtend<Cairn.StepCompletedUpdate>();
    expectTypeOf<Cairn.StepCompletedUpdate>().toExtend<Reference.StepCompletedUpdate>();
    expectTypeOf<Reference.TurnEndedUpdate>().toExtend<Cairn.TurnEndedUpdate>();
    expectTypeOf<Cairn.TurnEndedUpdate>().toExtend<Reference.TurnEndedUpdate>();
    expectTypeOf<Reference.UserMessageAppendedUpdate>().toEqualTypeOf<Cairn.UserMessageAppendedUpdate>();
    expectTypeOf<Reference.SummaryUpdate>().toEqualTypeOf<Cairn.SummaryUpdate>();
    expectTypeOf<Reference.SummaryStartedUpdate>().toEqualTypeOf<Cairn.SummaryStartedUpdate>();
    expectTypeOf<Reference.SummaryCompletedUpdate>().toExtend<Cairn.SummaryCompletedUpdate>();
    expectTypeOf<Cairn.SummaryCompletedUpdate>().toExtend<Reference.SummaryCompletedUpdate>();
    expectTypeOf<Reference.ShellOutputDeltaUpdate>().toEqualTypeOf<Cairn.ShellOutputDeltaUpdate>();
    // Cairn adds update types (mode-changed, todos-updated, plan-created, retry): reference -> Cairn only.
    expectTypeOf<Reference.InteractionUpdate>().toExtend<Cairn.InteractionUpdate>();
  });

  it('conversation', () => {
    expectTypeOf<Reference.UserMessage>().toEqualTypeOf<Cairn.UserMessage>();
    expectTypeOf<Reference.AssistantMessage>().toEqualTypeOf<Cairn.AssistantMessage>();
    expectTypeOf<Reference.ThinkingMessage>().toEqualTypeOf<Cairn.ThinkingMessage>();
    expectTypeOf<Reference.ShellCommand>().toEqualTypeOf<Cairn.ShellCommand>();
    expectTypeOf<Reference.ShellOutput>().toEqualTypeOf<Cairn.ShellOutput>();
    expectTypeOf<Reference.ConversationStep>().toEqualTypeOf<Cairn.ConversationStep>();
    expectTypeOf<Reference.AgentConversationTurn>().toEqualTypeOf<Cairn.AgentConversationTurn>();
    expectTypeOf<Reference.ShellConversationTurn>().toEqualTypeOf<Cairn.ShellConversationTurn>();
    expectTypeOf<Reference.ConversationTurn>().toEqualTypeOf<Cairn.ConversationTurn>();
  });

  it('options', () => {
    expectTypeOf<Reference.SettingSource>().toEqualTypeOf<Cairn.SettingSource>();
    // Cairn's configs add optional time limits: every reference config is a Cairn config.
    expectTypeOf<Reference.McpServerConfig>().toExtend<Cairn.McpServerConfig>();
    // The send options take the documented callbacks.
    expectTypeOf<{ onDelta: (event: { update: Reference.InteractionUpdate }) => void }>().toExtend<Pick<Cairn.SendOptions, 'onDelta'>>();
    expectTypeOf<{ onStep: (event: { step: Reference.ConversationStep }) => void }>().toExtend<Pick<Cairn.SendOptions, 'onStep'>>();
  });

  it('messages in, artifacts, agent info and custom tools', () => {
    expectTypeOf<Reference.SDKUserMessage>().toExtend<Cairn.SDKUserMessage>();
    expectTypeOf<Cairn.SDKUserMessage>().toExtend<Reference.SDKUserMessage>();
    expectTypeOf<Reference.SDKImage>().toExtend<Cairn.SDKImage>();
    expectTypeOf<Cairn.SDKImage>().toExtend<Reference.SDKImage>();
    expectTypeOf<Reference.SDKImageDimension>().toEqualTypeOf<Cairn.SDKImageDimension>();
    expectTypeOf<Reference.SDKArtifact>().toEqualTypeOf<Cairn.SDKArtifact>();
    // Cairn's info always carries the local runtime and adds model, mode and update time.
    expectTypeOf<Cairn.SDKAgentInfo>().toExtend<Reference.SDKAgentInfo>();
    expectTypeOf<Reference.SDKJsonValue>().toEqualTypeOf<Cairn.SDKJsonValue>();
    expectTypeOf<Reference.SDKCustomToolContent>().toExtend<Cairn.SDKCustomToolContent>();
    expectTypeOf<Cairn.SDKCustomToolContent>().toExtend<Reference.SDKCustomToolContent>();
    expectTypeOf<Reference.SDKCustomToolResult>().toExtend<Cairn.SDKCustomToolResult>();
    expectTypeOf<Cairn.SDKCustomToolResult>().toExtend<Reference.SDKCustomToolResult>();
    expectTypeOf<Reference.SDKCustomTool>().toExtend<Cairn.SDKCustomTool>();
    expectTypeOf<Reference.SDKCustomTool>().toExtend<Cairn.CustomTool>();
  });

  it('handles: a Cairn Run is a reference Run; errors carry the documented fields', () => {
    expectTypeOf<Cairn.SDKAgent>().toExtend<Reference.SDKAgent>();
    expectTypeOf<Cairn.Run>().toExtend<Reference.Run>();
    expectTypeOf<Cairn.CairnSdkError>().toExtend<Reference.SDKError>();
    expectTypeOf<Cairn.UnsupportedRunOperationError>().toExtend<Cairn.ConfigurationError>();
    expectTypeOf<Cairn.UnsupportedRunOperationError['operation']>().toEqualTypeOf<Reference.RunOperation>();
    expectTypeOf<Cairn.AgentBusyError>().toExtend<Cairn.CairnAgentError>();
    expectTypeOf<Cairn.CairnError>().toEqualTypeOf<Cairn.CairnSdkError>();
  });
});
