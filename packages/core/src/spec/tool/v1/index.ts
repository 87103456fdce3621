export type {
  BuiltInToolId, CustomTool, FileChange, SandboxRequirement, ToolCategory, ToolDefinition, ToolExecutionContext,
  ToolInputSchema, ToolName, ToolResult, ToolResultContent, ToolStateAccess, ZodLikeSchema,
} from './tool.js';
