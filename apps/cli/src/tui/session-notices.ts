import { Writable } from 'node:stream';
import { cliCairnHome } from '../commands/mcp-trust-store.js';
import type { StateStore } from './chat-state.js';
import { workspacePermissions } from '@cairn/server/workspace-permissions';

/** What the trust stores write to stderr (a server left out, a damaged trust file), as transcript lines: raw writes would break Ink's screen. */
export function noticeStream(store: StateStore): Writable {
  return new Writable({
    write: (chunk: Buffer | string, _encoding, done) => {
      const text = String(chunk).replace(/^cairn: /, '').trim();
      if (text) store.push({ kind: 'error', text });
      done();
    },
  });
}

/** Said once at the start, so the permissions in force are never a surprise (issue scope 3). */
export function safetyNotice(env: Record<string, string | undefined>): string {
  const home = cliCairnHome(env);
  return [
    'asks before shell commands that change things and before writes outside the workspace',
    `rules: .cairn/permissions.json, ${home}/permissions.json; "allow always": ${workspacePermissions(home).file}`,
  ].join('\n');
}
