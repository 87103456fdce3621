/**
 * The custom-tool types of the reference agent SDK, under their documented names, so a program
 * written against that SDK type-checks unchanged. Cairn's own `CustomTool` accepts every one of them.
 */

/** Any JSON value. */
export type SDKJsonValue = string | number | boolean | null | SDKJsonValue[] | { [key: string]: SDKJsonValue };

/** What `execute` learns about the call besides its arguments (Cairn passes a superset). */
export interface SDKCustomToolContext {
  toolCallId?: string;
}

/** One part of an envelope result: text, or a base64 image (`mimeType` is detected when missing). */
export type SDKCustomToolContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType?: string };

/**
 * A plain string (text for the model), any JSON value (sent as JSON text; an object also becomes
 * `structuredContent`), or the envelope with text and image parts and an error flag.
 */
export type SDKCustomToolResult =
  | string
  | SDKJsonValue
  | {
      content: SDKCustomToolContent[];
      isError?: boolean;
      structuredContent?: Record<string, SDKJsonValue>;
    };

/** A function offered to the model through `local.customTools`; the map key is the tool name. */
export interface SDKCustomTool {
  description?: string;
  /** A JSON Schema whose root is `{ type: 'object' }`; omitted = the tool takes no arguments. */
  inputSchema?: Record<string, SDKJsonValue>;
  execute: (args: Record<string, SDKJsonValue>, context: SDKCustomToolContext) => SDKCustomToolResult | Promise<SDKCustomToolResult>;
}
