import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { shellLogDirectory } from './log-directory.js';

export interface OutputCaptureOptions {
  /** Bytes kept from the start of the output. */
  headBytes: number;
  /** Bytes kept from the end of the output. */
  tailBytes: number;
  /** Name stem of the spill file. */
  name: string;
}

export interface CapturedOutput {
  /** Head + omission notice + tail, decoded lossily as UTF-8. */
  text: string;
  totalBytes: number;
  truncated: boolean;
  /** The full output, when it was longer than head + tail. */
  spillFile?: string;
}

/**
 * Keeps the first `headBytes` and the last `tailBytes` of a stream in memory and, once the output
 * is longer than both together, writes all of it to a file. Memory stays bounded whatever the
 * command prints; `write` returns false while the file is behind so the caller can pause the pipe.
 */
export class OutputCapture {
  private readonly head: Buffer[] = [];
  private headSize = 0;
  private tail: Buffer[] = [];
  private tailSize = 0;
  private total = 0;
  private spill?: WriteStream;
  private spillPath?: string;
  private spillError?: Error;

  constructor(private readonly options: OutputCaptureOptions) {}

  get totalBytes(): number {
    return this.total;
  }

  /** Waits until the spill file has flushed its buffer. */
  drained(): Promise<void> {
    const spill = this.spill;
    if (!spill?.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => spill.once('drain', () => resolve()));
  }

  /** Returns false when the spill file wants the producer to wait for `drain`. */
  write(chunk: Buffer): boolean {
    const spilling = this.spill !== undefined;
    this.total += chunk.length;
    let rest = chunk;
    if (this.headSize < this.options.headBytes) {
      const take = Math.min(rest.length, this.options.headBytes - this.headSize);
      this.head.push(rest.subarray(0, take));
      this.headSize += take;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) {
      this.tail.push(rest);
      this.tailSize += rest.length;
      if (!this.spill && this.total > this.options.headBytes + this.options.tailBytes) this.openSpill();
      this.trimTail();
    }
    // When the spill opened during this call it already received this chunk with the buffers.
    if (spilling && this.spill) return this.spill.write(chunk);
    return this.spill ? !this.spill.writableNeedDrain : true;
  }

  /** Resolves once the spill file holds everything written. */
  async finish(): Promise<CapturedOutput> {
    if (this.spill) {
      const spill = this.spill;
      await new Promise<void>((resolve) => spill.end(resolve));
    }
    const decode = (buffers: Buffer[]) => new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(buffers));
    const kept = this.headSize + this.tailSize;
    const truncated = this.total > kept;
    // Untruncated output is decoded in one piece so a character split between head and tail survives.
    let text = truncated ? decode(this.head) : decode([...this.head, ...this.tail]);
    if (truncated) {
      text += `\n\n[... ${this.total - kept} bytes omitted${this.spillPath ? `; full output in ${this.spillPath}` : ''} ...]\n\n${decode(this.tail)}`;
    }
    const result: CapturedOutput = { text, totalBytes: this.total, truncated };
    if (this.spillPath && !this.spillError) result.spillFile = this.spillPath;
    return result;
  }

  private openSpill(): void {
    this.spillPath = join(shellLogDirectory(), `${this.options.name}.log`);
    this.spill = createWriteStream(this.spillPath, { mode: 0o600 });
    this.spill.on('error', (error) => {
      this.spillError = error;
    });
    // Everything so far is still in memory (nothing was dropped yet): write it first.
    for (const buffer of [...this.head, ...this.tail]) this.spill.write(buffer);
  }

  private trimTail(): void {
    // Only drop data once it is safe in the spill file (or there is no spill yet and it still fits).
    while (this.tailSize > this.options.tailBytes && this.tail.length > 0) {
      const first = this.tail[0] as Buffer;
      const excess = this.tailSize - this.options.tailBytes;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailSize -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailSize -= excess;
      }
    }
  }
}
