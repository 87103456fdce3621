/**
 * What Cairn knows about images, for user messages and tool results alike: the types every shipped
 * provider reads, base64 checks, detection from the bytes, and the type a URL names.
 */

/** The image types OpenAI and Anthropic both take (Gemini takes all but GIF; its adapter describes GIFs in text). */
export const supportedImageMediaTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

const aliases: Record<string, string> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg' };

/** The canonical form of a supported image type (`IMAGE/JPG` -> `image/jpeg`); undefined when unsupported. */
export function supportedImageMediaType(value: string): string | undefined {
  const lower = value.trim().toLowerCase();
  const canonical = aliases[lower] ?? lower;
  return (supportedImageMediaTypes as readonly string[]).includes(canonical) ? canonical : undefined;
}

export function describeSupportedImageTypes(): string {
  return supportedImageMediaTypes.join(', ');
}

const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;

/** Standard base64 (what every wire protocol takes): no data: prefix, no whitespace, padded. */
export function isBase64(data: string): boolean {
  return data.length > 0 && data.length % 4 === 0 && base64Pattern.test(data);
}

/** The image type a file's first bytes show (PNG, JPEG, GIF, WebP), or undefined: magic bytes, never the name. */
export function imageMediaTypeOfBytes(head: Uint8Array): string | undefined {
  const startsWith = (...expected: number[]) => expected.every((byte, index) => head[index] === byte);
  const ascii = (start: number, end: number) => String.fromCharCode(...head.subarray(start, end));
  if (startsWith(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (startsWith(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/** The image type the first bytes of base64 data show, or undefined. */
export function detectImageMediaType(base64: string): string | undefined {
  let head: string;
  try {
    // 16 base64 characters are the 12 bytes WebP needs ("RIFF" size "WEBP").
    head = atob(base64.slice(0, 16));
  } catch {
    return undefined;
  }
  return imageMediaTypeOfBytes(Uint8Array.from(head, (character) => character.charCodeAt(0)));
}

const extensionTypes: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** The image type a URL's path extension names (`.../shot.PNG` -> `image/png`), or undefined. */
export function imageMediaTypeOfUrl(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return extension ? extensionTypes[extension] : undefined;
}

/** `data:<type>;base64,<data>` split into its parts; undefined when the URL is not of that form. */
export function parseBase64DataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)((?:;[^;,]+)*);base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1]!, data: match[3]! };
}
