import type { ToolExecutionContext, ToolResult } from '@cairn/core';
import { withFileLock } from '@cairn/core/node';
import { throwIfAborted } from './shared/abort.js';
import { commitFileChange } from './shared/commit-change.js';
import { loadCurrentFile } from './shared/current-file.js';
import { assertUnchangedSinceRead } from './shared/read-snapshots.js';
import { withWriteTarget } from './shared/workspace-target.js';
import type { WriteInput } from './write-file.js';

function countLines(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** write's call: loaded at the first one (see write-file.ts for the tool). */
export async function executeWrite(input: WriteInput, context: ToolExecutionContext): Promise<ToolResult> {
  throwIfAborted(context.signal);
  return withWriteTarget(context, input.path, 'write', (target) =>
    withFileLock(target.resolved.absolute, async () => {
      const current = await loadCurrentFile(context.cwd, target);
      assertUnchangedSinceRead(context, target.resolved.absolute, target.displayPath, current);
      await commitFileChange(context, target, input.path, current, Buffer.from(input.contents, 'utf8'));
      const verb = current.bytes === null ? 'Created' : 'Overwrote';
      return `${verb} ${target.displayPath} (${countLines(input.contents)} lines, ${Buffer.byteLength(input.contents)} bytes).`;
    }),
  );
}
