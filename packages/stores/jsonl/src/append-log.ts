import { type FileHandle, open, readFile } from 'node:fs/promises';

/** One complete line of a log file and where its bytes are. */
export interface LogLine {
  text: string;
  /** 1-based line number, for warnings. */
  lineNumber: number;
  position: number;
  byteLength: number;
}

/**
 * An append-only NDJSON file. Every append is one `write` on a descriptor opened with 'a'
 * (O_APPEND), so a crash leaves at most one torn line at the end. A torn tail found on load is
 * repaired by starting the next write with a newline, never by truncating.
 */
export class AppendLog {
  private handle: FileHandle | undefined;
  private readHandle: FileHandle | undefined;
  private size = 0;
  private needsNewline = false;
  // Writes go out in the order they were requested, so offsets and upserts land in order.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  /** Reads every line; `torn` is the unterminated tail (after a crash mid-write), if any. */
  async load(): Promise<{ lines: LogLine[]; torn: LogLine | undefined }> {
    let content: Buffer;
    try {
      content = await readFile(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      content = Buffer.alloc(0);
    }
    this.size = content.byteLength;
    const lines: LogLine[] = [];
    let start = 0;
    let lineNumber = 1;
    for (let end = content.indexOf(0x0a, start); end !== -1; end = content.indexOf(0x0a, start)) {
      if (end > start) lines.push({ text: content.toString('utf8', start, end), lineNumber, position: start, byteLength: end - start });
      start = end + 1;
      lineNumber++;
    }
    let torn: LogLine | undefined;
    if (start < content.byteLength) {
      torn = { text: content.toString('utf8', start), lineNumber, position: start, byteLength: content.byteLength - start };
      this.needsNewline = true;
    }
    return { lines, torn };
  }

  /** Appends lines in one write; resolves with the byte position of each line. */
  append(lines: string[]): Promise<number[]> {
    const prefix = this.needsNewline ? '\n' : '';
    this.needsNewline = false;
    const encoded = Buffer.from(prefix + lines.map((line) => `${line}\n`).join(''), 'utf8');
    const positions: number[] = [];
    let position = this.size + prefix.length;
    for (const line of lines) {
      positions.push(position);
      position += Buffer.byteLength(line, 'utf8') + 1;
    }
    this.size += encoded.byteLength;
    const write = this.queue.then(async () => {
      this.handle ??= await open(this.path, 'a', 0o600);
      let written = 0;
      // A regular file takes the whole buffer in one write; the loop only guards a short write.
      while (written < encoded.byteLength) {
        written += (await this.handle.write(encoded, written, encoded.byteLength - written)).bytesWritten;
      }
      return positions;
    });
    this.queue = write.catch(() => undefined);
    return write;
  }

  /** Reads the bytes of a line written earlier (by position), e.g. a blob. */
  async readLine(position: number, byteLength: number): Promise<string> {
    await this.queue;
    this.readHandle ??= await open(this.path, 'r');
    const buffer = Buffer.alloc(byteLength);
    let read = 0;
    while (read < byteLength) {
      const { bytesRead } = await this.readHandle.read(buffer, read, byteLength - read, position + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.toString('utf8', 0, read);
  }

  /** Waits for pending writes, flushes them to disk and closes the descriptors. */
  async close(): Promise<void> {
    await this.queue;
    if (this.handle !== undefined) {
      await this.handle.sync();
      await this.handle.close();
      this.handle = undefined;
    }
    await this.readHandle?.close();
    this.readHandle = undefined;
  }
}
