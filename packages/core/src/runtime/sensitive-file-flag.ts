import { relative, sep } from 'node:path';
import { sensitiveFileReason } from '../node/sensitive-files.js';
import type { SensitiveFileChangedUpdate } from '../spec/events/v1/index.js';
import type { FileChange } from '../spec/tool/v1/index.js';

/**
 * The `sensitive-file-changed` update for a file tool's change to a file that makes other programs
 * run code (package.json scripts, CI workflows, ...), or undefined for any other file. The
 * permission engine already asked about the write when someone could approve; this shows it.
 */
export function sensitiveFileChangeUpdate(cwd: string, change: FileChange, callId: string): SensitiveFileChangedUpdate | undefined {
  const reason = sensitiveFileReason(cwd, change.path);
  if (!reason) return undefined;
  const kind = change.before === null ? 'created' : change.after === null ? 'deleted' : 'modified';
  return { type: 'sensitive-file-changed', callId, path: relative(cwd, change.path).split(sep).join('/'), change: kind, reason, source: 'file-tool' };
}
