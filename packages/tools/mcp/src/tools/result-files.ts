import { lstatSync, mkdirSync, mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sanitizeNamePart } from './tool-names.js';

let defaultFolder: string | undefined;

/**
 * Where whole results are kept when no folder is configured: a folder of this user under the OS
 * temp dir (mode 0700), kept after the process exits so the user can still read what the model
 * was shown only part of. A name taken by someone else (a symlink planted in a shared /tmp) gets
 * a fresh private folder instead.
 */
export function defaultResultDir(): string {
  if (defaultFolder) return defaultFolder;
  const uid = process.getuid?.();
  const base = join(tmpdir(), uid === undefined ? 'cairn-mcp-results' : `cairn-mcp-results-${uid}`);
  try {
    mkdirSync(base, { recursive: true, mode: 0o700 });
    const info = lstatSync(base);
    defaultFolder = info.isDirectory() && (uid === undefined || info.uid === uid) ? base : mkdtempSync(`${base}-`);
  } catch {
    defaultFolder = mkdtempSync(join(tmpdir(), 'cairn-mcp-results-'));
  }
  return defaultFolder;
}

/** Which call a saved file belongs to: names it, so files of one agent sit together. */
export interface ResultFilePlace {
  resultDir: string;
  agentId: string;
  server: string;
  tool: string;
  toolCallId: string;
}

/** Writes `data` to `<resultDir>/<agentId>/<server>-<tool>-<call><suffix>` (mode 0600) and returns the path. */
export async function saveResultFile(place: ResultFilePlace, suffix: string, data: string | Uint8Array): Promise<string> {
  const folder = join(place.resultDir, sanitizeNamePart(place.agentId));
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, `${sanitizeNamePart(place.server)}-${sanitizeNamePart(place.tool)}-${sanitizeNamePart(place.toolCallId)}${suffix}`);
  await writeFile(path, data, { mode: 0o600 });
  return path;
}
