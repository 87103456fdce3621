export type {
  AgentConversationTurn, AssistantContentBlock, AssistantMessage, ConversationStep, ConversationTurn, InteractionUpdate, InteractionUpdateType,
  ModeChangedUpdate, NestedTaskUpdate, PartialToolCallUpdate, PlanCreatedUpdate, RetryUpdate, RunEvent, WarningUpdate, RunStatus, SDKAssistantMessage, SDKMessage,
  SDKMessageType, SDKRequestMessage, SDKStatus, SDKStatusMessage, SDKStatusPhase, SDKSystemMessage, SDKTaskMessage, SDKThinkingMessage,
  SDKToolUseMessage, SDKUsageMessage, SDKUserMessageEvent, SensitiveFileChangedUpdate, ApprovalRequestedUpdate, ApprovalDecidedUpdate, ShellCommand, ShellConversationTurn, ShellOutput, ShellOutputDeltaUpdate,
  StepCompletedUpdate, StepStartedUpdate, SummaryCompletedUpdate, SummaryStartedUpdate, SummaryUpdate, TextBlock, TextDeltaUpdate,
  ThinkingCompletedUpdate, ThinkingDeltaUpdate, ThinkingMessage, TodosUpdatedUpdate, TokenDeltaUpdate, ToolCall, ToolCallCompletedUpdate,
  ToolCallDeltaUpdate, ToolCallStartedUpdate, ToolUseBlock, TurnEndedUpdate, UserMessage, UserMessageAppendedUpdate,
} from './events.js';
export type { AgentUsage, CostCents, RunUsage, TokenUsage, UsageCost } from './usage.js';
