export type {
  BuiltInToolId, CustomTool, FileChange, SandboxRequirement, ToolCategory, ToolDefinition, ToolExecutionContext,
  ToolInputSchema, ToolName, ToolResult, ToolResultContent, ToolResultImage, ToolStateAccess, ZodLikeSchema,
} from './tool.js';
export type { SDKCustomTool, SDKCustomToolContent, SDKCustomToolContext, SDKCustomToolResult, SDKJsonValue } from './custom-tool.js';
