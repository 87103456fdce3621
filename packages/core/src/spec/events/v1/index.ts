export type {
  AssistantContentBlock, ConversationStep, ConversationTurn, InteractionUpdate, InteractionUpdateType, RunEvent, RunStatus,
  SDKMessage, SDKMessageType,
} from './events.js';
export type { AgentUsage, CostCents, TokenUsage } from './usage.js';
