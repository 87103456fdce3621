/**
 * How the real APIs check the images of a request, for the fake servers. Written independently of
 * the runtime's own image helpers, so a bug there shows up here as a problem.
 */

/** The image types OpenAI and Anthropic accept. */
export const commonImageTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
/** The image types Gemini accepts (no GIF). */
export const geminiImageTypes = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'];

/** Standard padded base64 that survives a decode/encode round trip. */
export function isStrictBase64(data: unknown): boolean {
  return typeof data === 'string' && data.length > 0 && Buffer.from(data, 'base64').toString('base64') === data;
}

/** The type the bytes show, for the APIs that refuse an image whose bytes are another type than declared. */
export function sniffedImageType(base64: string): string | undefined {
  const bytes = Buffer.from(base64.slice(0, 16), 'base64');
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const text = bytes.toString('latin1');
  if (text.startsWith('GIF8')) return 'image/gif';
  if (text.startsWith('RIFF') && text.slice(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** OpenAI's `image_url` (Chat) and `input_image.image_url` (Responses): an http(s) URL or a base64 data URL of an image type. */
export function openAIImageUrlProblems(url: unknown, where: string): string[] {
  if (isHttpUrl(url)) return [];
  if (typeof url !== 'string' || !url.startsWith('data:')) return [`Invalid '${where}': expected an http(s) URL or a base64 data URL (got ${JSON.stringify(url)?.slice(0, 60)}).`];
  const match = /^data:([^;,]*)(?:;[^;,]+)*;base64,(.*)$/s.exec(url);
  if (!match) return [`Invalid '${where}': the data URL is not base64 (data:<type>;base64,<data>).`];
  const [, mediaType, data] = match;
  if (!commonImageTypes.includes(mediaType!)) {
    return [`Invalid '${where}'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,...'), but got unsupported MIME type '${mediaType}'.`];
  }
  if (!isStrictBase64(data)) return [`Invalid '${where}': the image data is not valid base64.`];
  return [];
}

/** Anthropic's image block `source`: base64 with a supported `media_type` matching the bytes, or a url. */
export function anthropicImageSourceProblems(source: Record<string, any> | undefined, where: string): string[] {
  if (source?.type === 'url') return isHttpUrl(source.url) ? [] : [`${where}.source.url: must be an http(s) URL`];
  if (source?.type !== 'base64') return [`${where}.source.type: Input should be 'base64' or 'url' (got ${JSON.stringify(source?.type)})`];
  if (!commonImageTypes.includes(source.media_type)) {
    return [`${where}.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp' (got ${JSON.stringify(source.media_type)})`];
  }
  if (!isStrictBase64(source.data)) return [`${where}.source.base64.data: The image data is not valid base64`];
  const sniffed = sniffedImageType(source.data);
  if (sniffed && sniffed !== source.media_type) return [`${where}: Image does not match the provided media type ${source.media_type}`];
  return [];
}

/** Gemini's `inlineData` (a supported `mimeType` and base64 `data`) and `fileData` (a `fileUri`, an optional supported `mimeType`). */
export function geminiMediaPartProblems(part: Record<string, any>, where: string): string[] {
  if (part.inlineData !== undefined) {
    const { mimeType, data } = part.inlineData ?? {};
    if (typeof mimeType !== 'string' || mimeType === '') return [`${where}.inline_data.mime_type: mime_type is not specified`];
    if (!geminiImageTypes.includes(mimeType)) return [`${where}: Unsupported MIME type: ${mimeType}`];
    if (!isStrictBase64(data)) return [`${where}.inline_data.data: Invalid value (base64 decoding failed)`];
    return [];
  }
  if (part.fileData !== undefined) {
    const { fileUri, mimeType } = part.fileData ?? {};
    if (typeof fileUri !== 'string' || fileUri === '') return [`${where}.file_data.file_uri: file_uri is not specified`];
    if (mimeType !== undefined && !geminiImageTypes.includes(mimeType)) return [`${where}: Unsupported MIME type: ${mimeType}`];
  }
  return [];
}
