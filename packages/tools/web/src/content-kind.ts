export type ContentKind = 'html' | 'text' | 'binary';

const textApplicationTypes = new Set([
  'application/json', 'application/ld+json', 'application/xml', 'application/javascript', 'application/ecmascript',
  'application/x-javascript', 'application/x-yaml', 'application/yaml', 'application/toml', 'application/x-sh',
  'application/sql', 'application/graphql', 'application/x-ndjson', 'application/rss+xml', 'application/atom+xml',
]);

/** The media type of a Content-Type header, lower-cased, without parameters ('' when absent). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Decide from the Content-Type header alone; `undefined` means "look at the bytes". */
export function kindFromContentType(contentType: string | undefined): ContentKind | undefined {
  const type = mediaType(contentType);
  if (type === '') return undefined;
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('text/') || textApplicationTypes.has(type) || type.endsWith('+json') || type.endsWith('+xml')) return 'text';
  if (type === 'application/octet-stream') return undefined;
  return 'binary';
}

/** Sniff bytes when the header says nothing useful: NUL bytes mean binary; a leading tag means HTML. */
export function sniffKind(bytes: Uint8Array): ContentKind {
  const head = bytes.subarray(0, 1024);
  if (head.includes(0)) return 'binary';
  const start = Buffer.from(head).toString('latin1').trimStart().slice(0, 64).toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html') || start.startsWith('<head') ? 'html' : 'text';
}

/** Decode with the charset from the header, else a `<meta charset>` in an HTML head, else UTF-8. */
export function decodeText(bytes: Uint8Array, contentType: string | undefined, kind: ContentKind): string {
  let charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  if (!charset && kind === 'html') {
    const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
    charset = /<meta[^>]+charset\s*=\s*["']?([^"'\s/>;]+)/i.exec(head)?.[1];
  }
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    // An unknown charset label: UTF-8 with replacement characters beats refusing the page.
    return new TextDecoder('utf-8').decode(bytes);
  }
}
