import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelMessage } from '../spec/language-model/v1/index.js';

/**
 * The conversation as the JSONL file a hook's `transcript_path` names: one line per message,
 * `{"type": role, "message": {"role", "content"}}` (the shape of Claude Code's transcript lines).
 * Written only when a command hook is about to run and the conversation changed since the last
 * write, so agents whose hooks never read it pay one write per step at most.
 */
export class HookTranscript {
  private messages: readonly ModelMessage[] = [];
  private written: readonly ModelMessage[] | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  static forAgent(agentId: string): HookTranscript {
    return new HookTranscript(join(tmpdir(), 'cairn-hook-transcripts', `${agentId.replace(/[^\w.-]/g, '_')}.jsonl`));
  }

  /** The conversation as it stands (the run's messages before each step). */
  note(messages: readonly ModelMessage[]): void {
    this.messages = messages;
  }

  /** Write the file if the conversation changed; a failed write leaves the previous file (hooks still run). */
  flush(): Promise<void> {
    const messages = this.messages;
    if (messages === this.written) return this.writing;
    this.written = messages;
    this.writing = this.writing.then(async () => {
      await mkdir(join(this.path, '..'), { recursive: true, mode: 0o700 });
      const lines = messages.map((message) => JSON.stringify({ type: message.role, message: { role: message.role, content: message.content } }));
      await writeFile(this.path, lines.length ? `${lines.join('\n')}\n` : '', { mode: 0o600 });
    }).catch(() => undefined);
    return this.writing;
  }
}
