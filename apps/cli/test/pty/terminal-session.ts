import xterm from '@xterm/headless';
import { type IPty, spawn } from 'node-pty';
import { bracketedPaste, type KeyName, keys } from './keys.js';

export interface TerminalSessionOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols?: number;
  rows?: number;
}

export interface ExitStatus {
  exitCode: number;
  signal?: number;
}

/**
 * A program running in a real pseudo-terminal, its output rendered by a headless xterm: tests type
 * keys and read the screen a user would see, not the bytes the program wrote.
 */
export class TerminalSession {
  readonly terminal: xterm.Terminal;
  readonly exited: Promise<ExitStatus>;
  private readonly pty: IPty;
  private readonly listeners = new Set<() => void>();
  private status: ExitStatus | undefined;
  /** Everything the program wrote, for failure messages. */
  private transcript = '';
  /** Writes to xterm are parsed asynchronously: this settles once all of them are on the screen. */
  private parsed: Promise<void> = Promise.resolve();
  private lastDataAt = Date.now();
  /**
   * Inside a synchronized update (`ESC[?2026h` … `ESC[?2026l`, which Ink wraps each redraw in) the
   * screen is half drawn: a real terminal shows it only at the end, so waits check only then.
   */
  private synchronizing = false;
  private dataTail = '';

  constructor(options: TerminalSessionOptions) {
    const cols = options.cols ?? 100;
    const rows = options.rows ?? 30;
    this.terminal = new xterm.Terminal({ cols, rows, scrollback: 2000, allowProposedApi: true });
    this.pty = spawn(options.command, options.args, { name: 'xterm-256color', cols, rows, cwd: options.cwd, env: options.env });
    this.pty.onData((data) => {
      this.lastDataAt = Date.now();
      this.transcript += data;
      this.trackSynchronizedUpdate(data);
      this.parsed = new Promise((resolveWrite) => this.terminal.write(data, resolveWrite));
      void this.parsed.then(() => this.notify());
    });
    // The program's own queries (cursor position, device attributes) are answered as a terminal would.
    this.terminal.onData((reply) => this.pty.write(reply));
    this.exited = new Promise((resolveExit) =>
      this.pty.onExit(async ({ exitCode, signal }) => {
        // node-pty can report the exit before it has delivered the program's last output.
        await this.quiet();
        this.status = { exitCode, ...(signal ? { signal } : {}) };
        resolveExit(this.status);
        this.notify();
      }),
    );
  }

  get pid(): number {
    return this.pty.pid;
  }

  /**
   * Type text one key at a time, each after the program has drawn the previous one, as a person
   * watching the screen does (a burst of keys in one read is what a paste looks like).
   */
  async type(text: string): Promise<void> {
    for (const character of text) {
      await this.send(character);
      // A person's pace between keys (fast typing is about 80 ms a key).
      await pause(30);
    }
  }

  /** Type text as fast as the keys can be written, one write per key, without waiting for the screen. */
  typeQuickly(text: string): void {
    for (const character of text) this.pty.write(character);
  }

  /**
   * Paste text in one chunk, as a terminal does: wrapped in bracketed-paste markers only when the
   * program turned that mode on.
   */
  async paste(text: string): Promise<void> {
    await this.send(this.terminal.modes.bracketedPasteMode ? bracketedPaste(text) : text);
  }

  async press(...names: KeyName[]): Promise<void> {
    for (const name of names) await this.send(keys[name]);
  }

  /** Writes to the program, then waits until it has answered with output (at most half a second). */
  private async send(data: string): Promise<void> {
    const before = this.transcript.length;
    this.pty.write(data);
    const until = Date.now() + 500;
    while (this.transcript.length === before && !this.status && Date.now() < until) await pause(10);
    await this.parsed;
  }

  /** The visible screen, one string per row, trailing spaces trimmed. */
  screen(): string[] {
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < this.terminal.rows; row++) lines.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    return lines;
  }

  /** The screen and the scrollback above it, as text. */
  history(): string {
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < buffer.length; row++) lines.push(buffer.getLine(row)?.translateToString(true) ?? '');
    return lines.join('\n').trimEnd();
  }

  /**
   * Resolves once `expected` shows on the screen (or, with `inHistory`, anywhere in the scrollback);
   * fails with the screen in the message after `timeoutMs` or when the program exits first.
   */
  waitForText(expected: string | RegExp, timeoutMs = 20_000, options: { inHistory?: boolean } = {}): Promise<string> {
    const found = () => {
      const text = options.inHistory ? this.history() : this.screen().join('\n');
      return typeof expected === 'string' ? (text.includes(expected) ? expected : undefined) : expected.exec(text)?.[0];
    };
    return this.waitUntil(found, `${expected}`, timeoutMs);
  }

  /** Resolves once `expected` is no longer on the screen. */
  waitForNoText(expected: string | RegExp, timeoutMs = 20_000): Promise<void> {
    const gone = () => {
      const text = this.screen().join('\n');
      return (typeof expected === 'string' ? !text.includes(expected) : !expected.test(text)) || undefined;
    };
    return this.waitUntil(gone, `${expected} to disappear`, timeoutMs).then(() => undefined);
  }

  /**
   * Starts watching for `text` on every screen the program draws from now on (a prompt that comes
   * and goes between two checks is still seen); `seen()` says whether it showed up.
   */
  watchFor(text: string): { seen(): boolean; stop(): void } {
    let seen = false;
    const check = () => {
      if (!this.synchronizing && this.screen().join('\n').includes(text)) seen = true;
    };
    this.listeners.add(check);
    return { seen: () => seen, stop: () => this.listeners.delete(check) };
  }

  /** Waits for the program to end by itself; kills it after `timeoutMs`. */
  async waitForExit(timeoutMs = 20_000): Promise<ExitStatus> {
    const timer = setTimeout(() => this.kill(), timeoutMs);
    try {
      const status = await this.exited;
      await this.parsed;
      return status;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the program and its process group (tools it started), then frees the terminal. */
  async dispose(): Promise<void> {
    if (!this.status) this.kill();
    await Promise.race([this.exited, pause(5_000)]);
    this.terminal.dispose();
  }

  private kill(): void {
    // The pty made the program a session leader, so its pid is also its process group's id.
    try {
      process.kill(-this.pty.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  private waitUntil<T>(check: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
    return new Promise((resolveWait, reject) => {
      const attempt = () => {
        if (this.synchronizing && !this.status) return;
        const value = check();
        if (value !== undefined) return finish(() => resolveWait(value));
        if (this.status) finish(() => reject(this.failure(`the program exited (${JSON.stringify(this.status)}) before showing ${what}`)));
      };
      const timer = setTimeout(() => finish(() => reject(this.failure(`timed out after ${timeoutMs} ms waiting for ${what}`))), timeoutMs);
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(attempt);
        settle();
      };
      this.listeners.add(attempt);
      void this.parsed.then(attempt);
    });
  }

  private trackSynchronizedUpdate(data: string): void {
    const text = this.dataTail + data;
    const begin = text.lastIndexOf('\x1b[?2026h');
    const end = text.lastIndexOf('\x1b[?2026l');
    if (begin !== end) this.synchronizing = begin > end;
    this.dataTail = text.slice(-8);
  }

  /** Resolves once no output has arrived for a moment (at most two seconds). */
  private async quiet(): Promise<void> {
    const until = Date.now() + 2_000;
    while (Date.now() - this.lastDataAt < 150 && Date.now() < until) await pause(50);
    await this.parsed;
  }

  private failure(message: string): Error {
    return new Error(`${message}\n--- screen ---\n${this.screen().join('\n')}\n--- last output ---\n${JSON.stringify(this.transcript.slice(-1500))}`);
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolvePause) => setTimeout(resolvePause, ms));
}
