/**
 * Splits a stdio server's output into newline-delimited messages. Unlike the SDK's ReadBuffer,
 * which concatenates its whole buffer on every chunk (quadratic for a 10 MB result), pending chunks
 * are joined once per line. A line longer than `maxLineBytes` is an error: a server must not make
 * the host hold unbounded output.
 */
export class MessageLines {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** The complete lines this chunk finishes, without their `\n` (and a trailing `\r`). */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let rest = chunk;
    for (let newline = rest.indexOf(10); newline !== -1; newline = rest.indexOf(10)) {
      this.checkSize(this.pendingBytes + newline);
      this.pending.push(rest.subarray(0, newline));
      lines.push(Buffer.concat(this.pending).toString('utf8').replace(/\r$/, ''));
      this.pending = [];
      this.pendingBytes = 0;
      rest = rest.subarray(newline + 1);
    }
    if (rest.length > 0) {
      this.checkSize(this.pendingBytes + rest.length);
      this.pendingBytes += rest.length;
      this.pending.push(rest);
    }
    return lines;
  }

  private checkSize(bytes: number): void {
    if (bytes <= this.maxLineBytes) return;
    this.clear();
    const limit = this.maxLineBytes >= 1_048_576 ? `${Math.round(this.maxLineBytes / 1_048_576)} MB` : `${this.maxLineBytes} bytes`;
    throw new Error(`the server sent a message larger than ${limit}`);
  }

  clear(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }
}
