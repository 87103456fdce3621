import { ConfigurationError } from '../spec/errors/index.js';
import type { SDKImage, SDKImageDimension } from '../spec/message/v1/index.js';
import { describeSupportedImageTypes, detectImageMediaType, isBase64, parseBase64DataUrl, supportedImageMediaType } from './image-data.js';
import type { UserMessage } from './user-message.js';

const messageFields = new Set(['text', 'images']);
const imageFields = new Set(['url', 'data', 'mimeType', 'mediaType', 'dimension']);

/**
 * The message of `send()`, checked before any run starts: a string is the text; images become the
 * documented forms `{ url }` (http or https) and `{ data, mimeType }` with a supported type. Cairn's
 * earlier `mediaType` is accepted for `mimeType`, and a base64 `data:` URL given as `url` becomes
 * inline data (not every wire protocol takes data URLs). Anything else is a ConfigurationError that
 * says what to change.
 */
export function normalizeUserMessage(message: string | UserMessage): UserMessage {
  if (typeof message === 'string') return { text: message };
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new ConfigurationError('send() takes a string or { text, images? }.');
  }
  const unknown = Object.keys(message).filter((key) => !messageFields.has(key));
  if (unknown.length > 0) throw new ConfigurationError(`send(): the message has unknown field ${unknown.join(', ')}; a message is { text, images? }.`);
  if (message.text !== undefined && typeof message.text !== 'string') throw new ConfigurationError('send(): message.text must be a string.');
  if (message.images === undefined) return { text: message.text ?? '' };
  if (!Array.isArray(message.images)) throw new ConfigurationError('send(): message.images must be an array of { url } or { data, mimeType } images.');
  return { text: message.text ?? '', images: message.images.map((image, index) => normalizeImage(image, `send(): images[${index}]`)) };
}

function normalizeImage(image: unknown, where: string): SDKImage {
  if (typeof image !== 'object' || image === null || Array.isArray(image)) throw new ConfigurationError(`${where} must be { url } or { data, mimeType }.`);
  const fields = image as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !imageFields.has(key));
  if (unknown.length > 0) throw new ConfigurationError(`${where} has unknown field ${unknown.join(', ')}; an image is { url } or { data, mimeType }, each with an optional dimension.`);
  const dimension = normalizeDimension(fields.dimension, where);
  const extra = dimension ? { dimension } : {};
  const hasUrl = fields.url !== undefined;
  const hasData = fields.data !== undefined;
  if (hasUrl && hasData) throw new ConfigurationError(`${where} has both url and data: pass one of them.`);
  if (!hasUrl && !hasData) throw new ConfigurationError(`${where} has neither url nor data: pass a remote url, or base64 data with its mimeType.`);
  if (hasUrl) return { ...urlImage(fields.url, where), ...extra };
  return { ...dataImage(fields.data, fields.mimeType ?? fields.mediaType, where), ...extra };
}

function urlImage(url: unknown, where: string): { url: string } | { data: string; mimeType: string } {
  if (typeof url !== 'string' || url === '') throw new ConfigurationError(`${where}.url must be a non-empty string.`);
  if (url.startsWith('data:')) {
    const parsed = parseBase64DataUrl(url);
    if (!parsed) throw new ConfigurationError(`${where}.url is a data: URL that is not base64 (data:<type>;base64,<data>).`);
    return dataImage(parsed.data, parsed.mediaType, where);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigurationError(`${where}.url "${url.slice(0, 100)}" is not a valid URL.`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ConfigurationError(`${where}.url must be an http(s) URL the provider can fetch (got ${parsed.protocol}). For a local file, pass its bytes as base64 data with a mimeType.`);
  }
  return { url };
}

function dataImage(data: unknown, declaredType: unknown, where: string): { data: string; mimeType: string } {
  if (typeof data !== 'string' || data === '') throw new ConfigurationError(`${where}.data must be a non-empty base64 string.`);
  if (data.startsWith('data:')) throw new ConfigurationError(`${where}.data is a data: URL: pass only the base64 part as data (with mimeType), or the whole URL as url.`);
  if (!isBase64(data)) throw new ConfigurationError(`${where}.data is not base64: encode the image bytes as standard, padded base64 without whitespace.`);
  if (declaredType === undefined) throw new ConfigurationError(`${where} has data but no mimeType: set mimeType to one of ${describeSupportedImageTypes()}.`);
  if (typeof declaredType !== 'string') throw new ConfigurationError(`${where}.mimeType must be a string such as "image/png".`);
  const mimeType = supportedImageMediaType(declaredType);
  if (!mimeType) throw new ConfigurationError(`${where}.mimeType "${declaredType}" is not supported: use one of ${describeSupportedImageTypes()}.`);
  const detected = detectImageMediaType(data);
  // Anthropic refuses an image whose bytes are another type than declared; say so before the run.
  if (detected && detected !== mimeType) throw new ConfigurationError(`${where}.mimeType is ${mimeType} but the bytes are ${detected}: set mimeType to ${detected}.`);
  return { data, mimeType };
}

function normalizeDimension(dimension: unknown, where: string): SDKImageDimension | undefined {
  if (dimension === undefined) return undefined;
  const value = dimension as Partial<SDKImageDimension> | null;
  const positive = (number: unknown) => typeof number === 'number' && Number.isFinite(number) && number > 0;
  if (typeof value !== 'object' || value === null || !positive(value.width) || !positive(value.height)) {
    throw new ConfigurationError(`${where}.dimension must be { width, height } in pixels (positive numbers).`);
  }
  return { width: value.width as number, height: value.height as number };
}
