import type { JSONValue, ProviderMetadata } from '../../json.js';

/** The conversation as the runtime hands it to a model: provider-neutral messages. */
export type ModelMessage = SystemModelMessage | UserModelMessage | AssistantModelMessage | ToolModelMessage;

export interface SystemModelMessage {
  role: 'system';
  content: string;
  providerMetadata?: ProviderMetadata;
}

export interface UserModelMessage {
  role: 'user';
  content: Array<TextPart | ImagePart>;
  providerMetadata?: ProviderMetadata;
}

export interface AssistantModelMessage {
  role: 'assistant';
  content: Array<TextPart | ReasoningPart | ToolCallPart>;
  providerMetadata?: ProviderMetadata;
}

export interface ToolModelMessage {
  role: 'tool';
  content: ToolResultPart[];
  providerMetadata?: ProviderMetadata;
}

export interface TextPart {
  type: 'text';
  text: string;
  providerMetadata?: ProviderMetadata;
}

/** An image of a user message: inline base64 bytes, or a remote URL the provider fetches. */
export type ImagePart = ImageDataPart | ImageUrlPart;

export interface ImageDataPart {
  type: 'image';
  /** Base64 without the data: prefix. */
  data: string;
  mediaType: string;
  providerMetadata?: ProviderMetadata;
}

/**
 * A remote image (`http:` or `https:`). `mediaType` is set when the URL's extension names an image
 * type; wire formats that need a type and get none leave it to the provider to read it.
 */
export interface ImageUrlPart {
  type: 'image';
  url: string;
  mediaType?: string;
  providerMetadata?: ProviderMetadata;
}

/**
 * Model reasoning. `signature` (Anthropic thinking signature, Gemini thought signature) and
 * `redactedData` (Anthropic redacted thinking) must be sent back exactly as received; encrypted
 * reasoning of other providers travels in `providerMetadata`.
 */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  signature?: string;
  redactedData?: string;
  providerMetadata?: ProviderMetadata;
}

export interface ToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  /** Parsed arguments; the raw text when the model sent JSON that does not parse. */
  input: JSONValue;
  providerMetadata?: ProviderMetadata;
}

export interface ToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: ToolResultOutput;
  providerMetadata?: ProviderMetadata;
}

export type ToolResultOutput =
  | { type: 'text'; value: string }
  | { type: 'json'; value: JSONValue }
  | { type: 'error-text'; value: string }
  | { type: 'error-json'; value: JSONValue }
  | {
      type: 'content';
      value: Array<{ type: 'text'; text: string } | { type: 'image'; data: string; mediaType: string }>;
      /** A failure that carries images too (the text-only failures are `error-text`). */
      isError?: boolean;
    };
