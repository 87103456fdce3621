import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type AgentRecord, CairnError, type RunRecord } from '@cairn/core';
import { AppendLog, type LogLine } from './append-log.js';
import { acquireDirectoryLock } from './directory-lock.js';
import { storeClosedError } from './store-errors.js';

export interface JsonlWarning {
  file: string;
  line: number;
  message: string;
}

export const fileNames = {
  agents: 'agents.ndjson',
  runs: 'runs.ndjson',
  runEvents: 'run_events.ndjson',
  checkpoints: 'checkpoints.ndjson',
} as const;

/** Everything the four files say, rebuilt on load: the last record per id wins. */
export class JsonlState {
  readonly agents = new Map<string, AgentRecord>();
  readonly runs = new Map<string, RunRecord>();
  /** Per run, the JSON text of each event; index i is offset i + 1. */
  readonly events = new Map<string, string[]>();
  readonly blobs = new Map<string, { position: number; byteLength: number }>();
  readonly logs: { [Key in keyof typeof fileNames]: AppendLog };
  private loading: Promise<void> | undefined;
  private releaseLock: (() => void) | undefined;
  private failure: unknown;
  private closed = false;

  constructor(
    readonly dir: string,
    private readonly report: (warning: JsonlWarning) => void,
  ) {
    this.logs = {
      agents: new AppendLog(join(dir, fileNames.agents)),
      runs: new AppendLog(join(dir, fileNames.runs)),
      runEvents: new AppendLog(join(dir, fileNames.runEvents)),
      checkpoints: new AppendLog(join(dir, fileNames.checkpoints)),
    };
  }

  /** Loads lazily, once: the first operation pays for reading the files. */
  async ready(): Promise<void> {
    if (this.closed) throw storeClosedError(this.dir);
    this.loading ??= this.load();
    await this.loading;
    if (this.failure !== undefined) throw this.failure;
  }

  /**
   * Appends records to one file. The in-memory index was already changed (synchronously, which
   * keeps lease checks atomic); if the write fails the store stops accepting operations, since
   * memory and disk may now disagree — reopening reloads what is on disk.
   */
  persist(key: keyof typeof fileNames, records: unknown[]): Promise<number[]> {
    return this.persistLines(
      key,
      records.map((record) => JSON.stringify(record)),
    );
  }

  /** The same for records already serialised to one line each. */
  async persistLines(key: keyof typeof fileNames, lines: string[]): Promise<number[]> {
    try {
      return await this.logs[key].append(lines);
    } catch (error) {
      this.failure ??= new CairnError(`Writing ${join(this.dir, fileNames[key])} failed; reopen the store to continue.`, {
        code: 'store_write_failed',
        cause: error,
      });
      throw this.failure;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.loading === undefined) return;
    await this.loading.catch(() => undefined);
    await Promise.all(Object.values(this.logs).map((log) => log.close()));
    this.releaseLock?.();
  }

  private async load(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    this.releaseLock = acquireDirectoryLock(this.dir);
    await this.loadFile('agents', (record, line) => {
      if (record.type === 'agent' && typeof record.record?.agentId === 'string') this.agents.set(record.record.agentId, record.record);
      else if (record.type === 'agent-deleted' && typeof record.agentId === 'string') this.agents.delete(record.agentId);
      else this.warn('agents', line, 'not an agent record');
    });
    await this.loadFile('runs', (record, line) => {
      if (record.type === 'run' && typeof record.record?.runId === 'string') this.runs.set(record.record.runId, record.record);
      else this.warn('runs', line, 'not a run record');
    });
    await this.loadFile('runEvents', (record, line) => {
      if (typeof record.runId !== 'string' || typeof record.offset !== 'number' || record.event === undefined) {
        this.warn('runEvents', line, 'not a run event record');
        return;
      }
      const log = this.events.get(record.runId) ?? [];
      if (record.offset !== log.length + 1) {
        this.warn('runEvents', line, `offset ${record.offset} of run ${record.runId} does not follow ${log.length}`);
        return;
      }
      log.push(JSON.stringify(record.event));
      this.events.set(record.runId, log);
    });
    await this.loadFile('checkpoints', (record, line) => {
      if (typeof record.hash !== 'string' || typeof record.data !== 'string') this.warn('checkpoints', line, 'not a blob record');
      else if (!this.blobs.has(record.hash)) this.blobs.set(record.hash, { position: line.position, byteLength: line.byteLength });
    });
  }

  private async loadFile(key: keyof typeof fileNames, apply: (record: any, line: LogLine) => void): Promise<void> {
    const { lines, torn } = await this.logs[key].load();
    for (const line of lines) {
      let record: unknown;
      try {
        record = JSON.parse(line.text);
      } catch {
        // A torn line from an earlier crash that a later append already terminated.
        this.warn(key, line, 'unreadable record skipped (torn by an earlier crash)');
        continue;
      }
      if (record === null || typeof record !== 'object') this.warn(key, line, 'not a JSON object');
      else apply(record, line);
    }
    if (torn !== undefined) {
      // A strict prefix of a JSON object never parses, so a tail that parses is a complete record
      // whose newline was not written: keep it. Either way the next append starts a fresh line.
      let record: unknown;
      try {
        record = JSON.parse(torn.text);
      } catch {
        this.warn(key, torn, 'torn last record skipped (the process stopped while writing it); the file will be repaired on the next write');
        return;
      }
      if (record !== null && typeof record === 'object') apply(record, torn);
    }
  }

  private warn(key: keyof typeof fileNames, line: LogLine, message: string): void {
    this.report({ file: fileNames[key], line: line.lineNumber, message });
  }
}
