import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CairnError } from '@cairn/core';
import type { LogLine } from './append-log.js';

/**
 * An NDJSON file that several processes append to and read at once, with no lock. Each append is
 * one write on a descriptor opened with O_APPEND, which the kernel places whole at the end of the
 * file: the order of lines in the file is the order of the writes, and every reader sees the same
 * order. Each record is written as "\n<json>\n", so a fragment torn by a crash stays a line of its
 * own and the next record still parses. Readers consume complete lines only: an unterminated tail
 * may be a write still in progress, and is read again next time.
 *
 * Local file systems only: network file systems do not keep O_APPEND writes whole.
 */
export class SharedAppendLog {
  private handle: FileHandle | undefined;
  /** Bytes of the file already returned by readNew (always just after a newline). */
  private consumed = 0;
  /** Line number of the line that starts at `consumed`, for warnings. */
  private nextLineNumber = 1;

  constructor(readonly path: string) {}

  /** The complete lines written since the previous call (by any process), in file order. */
  async readNew(): Promise<LogLine[]> {
    const handle = await this.open();
    const { size } = await handle.stat();
    if (size < this.consumed) {
      throw new CairnError(`${this.path} got shorter while in use; it is append-only. Restore it, or reopen the store to read it again.`, { code: 'store_corrupt' });
    }
    if (size === this.consumed) return [];
    const buffer = Buffer.alloc(size - this.consumed);
    let read = 0;
    while (read < buffer.byteLength) {
      const { bytesRead } = await handle.read(buffer, read, buffer.byteLength - read, this.consumed + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    const lines: LogLine[] = [];
    let start = 0;
    for (let end = buffer.indexOf(0x0a, start); end !== -1 && end < read; end = buffer.indexOf(0x0a, start)) {
      if (end > start) lines.push({ text: buffer.toString('utf8', start, end), lineNumber: this.nextLineNumber, position: this.consumed + start, byteLength: end - start });
      start = end + 1;
      this.nextLineNumber++;
    }
    this.consumed += start;
    return lines;
  }

  /** Appends the records in one write and waits until the data is on disk. */
  async append(lines: string[]): Promise<void> {
    if (lines.length === 0) return;
    const handle = await this.open();
    const encoded = Buffer.from(lines.map((line) => `\n${line}\n`).join(''), 'utf8');
    const { bytesWritten } = await handle.write(encoded);
    // A regular file takes the whole buffer in one write; a short one would break the ordering.
    if (bytesWritten !== encoded.byteLength) throw new CairnError(`Writing ${this.path} stopped after ${bytesWritten} of ${encoded.byteLength} bytes (disk full?).`, { code: 'store_write_failed' });
    // Answers are rare and a lost one means asking the person again: worth an fsync each.
    await handle.datasync();
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
  }

  private async open(): Promise<FileHandle> {
    if (this.handle === undefined) {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      this.handle = await open(this.path, 'a+', 0o600);
    }
    return this.handle;
  }
}
