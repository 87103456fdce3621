/**
 * The structured message of `agent.send()`, under the reference agent SDK's documented names:
 * text with images, each a remote `url` or base64 `data` with its `mimeType`.
 */
export interface SDKUserMessage {
  text: string;
  images?: SDKImage[];
}

export type SDKImage = { url: string; dimension?: SDKImageDimension } | { data: string; mimeType: string; dimension?: SDKImageDimension };

/** The image's size in pixels, as the caller knows it (informational: no wire protocol takes it). */
export interface SDKImageDimension {
  width: number;
  height: number;
}
