import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore, currentSchemaVersion, resolveDatabasePath } from '../src/index.js';
import { cairnApplicationId, migrations } from '../src/schema.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-sqlite-open-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const codeOf = (action: () => unknown): { code: string; message: string } => {
  try {
    action();
  } catch (error) {
    return { code: String((error as { code?: unknown }).code), message: (error as Error).message };
  }
  return { code: 'opened', message: '' };
};

/** A store file as an older version left it: the migrations up to `version`, open for adding rows. */
function fileAtVersion(path: string, version: number): Database.Database {
  const database = new Database(path);
  for (let next = 1; next <= version; next++) database.exec(migrations[next] as string);
  database.pragma(`application_id = ${cairnApplicationId}`);
  database.pragma(`user_version = ${version}`);
  return database;
}

describe('opening a SQLite store', () => {
  it('defaults to <home>/agents.db and creates the folder', () => {
    const home = join(root, 'nested', 'cairn-home');
    const store = createSqliteStore({ home });
    expect(store.path).toBe(join(home, 'agents.db'));
    expect(existsSync(store.path)).toBe(true);
    expect(statSync(home).mode & 0o077).toBe(0);
    expect(statSync(store.path).mode & 0o077).toBe(0);
    expect(store.shared).toBe(true);
    store.close();
  });

  it('uses $CAIRN_HOME when neither path nor home is given; path wins over home', () => {
    const previous = process.env.CAIRN_HOME;
    process.env.CAIRN_HOME = join(root, 'from-env');
    try {
      expect(resolveDatabasePath({})).toBe(join(root, 'from-env', 'agents.db'));
      expect(resolveDatabasePath({ home: join(root, 'other') })).toBe(join(root, 'other', 'agents.db'));
      expect(resolveDatabasePath({ path: join(root, 'x.db'), home: join(root, 'other') })).toBe(join(root, 'x.db'));
    } finally {
      if (previous === undefined) delete process.env.CAIRN_HOME;
      else process.env.CAIRN_HOME = previous;
    }
  });

  it('sets WAL, synchronous NORMAL, the schema version and the application id', () => {
    const path = join(root, 'agents.db');
    createSqliteStore({ path }).close();
    const database = new Database(path, { readonly: true });
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.pragma('user_version', { simple: true })).toBe(currentSchemaVersion);
    expect(database.pragma('application_id', { simple: true })).toBe(0x43726e31);
    const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    expect(tables).toEqual([{ name: 'agents' }, { name: 'approvals' }, { name: 'blobs' }, { name: 'run_events' }, { name: 'run_logs' }, { name: 'runs' }]);
    database.close();
  });

  it('refuses a corrupt file with a clear message and leaves it untouched', () => {
    const path = join(root, 'agents.db');
    const garbage = Buffer.from('this is not a database, just some text that happens to be here\n'.repeat(100));
    writeFileSync(path, garbage);
    const failure = codeOf(() => createSqliteStore({ path }));
    expect(failure.code).toBe('store_corrupt');
    expect(failure.message).toContain(path);
    expect(failure.message).toContain('not modified');
    expect(readFileSync(path).equals(garbage)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('refuses a store with a newer schema version and leaves it untouched', () => {
    const path = join(root, 'agents.db');
    createSqliteStore({ path }).close();
    const database = new Database(path);
    database.pragma(`user_version = ${currentSchemaVersion + 1}`);
    database.pragma('journal_mode = DELETE');
    database.close();
    const before = readFileSync(path);
    const failure = codeOf(() => createSqliteStore({ path }));
    expect(failure.code).toBe('store_version_unsupported');
    expect(failure.message).toContain(`schema version ${currentSchemaVersion + 1}`);
    expect(failure.message).toContain('Upgrade @cairn/store-sqlite');
    expect(readFileSync(path).equals(before)).toBe(true);
    const check = new Database(path, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    check.close();
  });

  it('refuses a SQLite file of another application', () => {
    const path = join(root, 'other.db');
    const database = new Database(path);
    database.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
    database.close();
    const failure = codeOf(() => createSqliteStore({ path }));
    expect(failure.code).toBe('store_corrupt');
    expect(failure.message).toContain('did not create');
    const check = new Database(path, { readonly: true });
    expect(check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([{ name: 'notes' }]);
    check.close();
  });

  it('brings a version 1 file to the current version on open, keeping its data', async () => {
    const path = join(root, 'agents.db');
    const old = fileAtVersion(path, 1);
    old.prepare('INSERT INTO run_events (run_id, "offset", event) VALUES (?, ?, ?)').run('run-1', 1, JSON.stringify({ kind: 'update', update: { type: 'text-delta', text: 'kept' } }));
    old.close();
    const upgraded = createSqliteStore({ path });
    expect((await upgraded.runEvents.list('run-1')).events).toEqual([{ offset: 1, event: { kind: 'update', update: { type: 'text-delta', text: 'kept' } } }]);
    await upgraded.approvals.request([{ runId: 'run-1', agentId: 'agent-1', callId: 'call-1', kind: 'tool', reason: 'ask rule', status: 'pending', createdAt: 1 }]);
    expect((await upgraded.approvals.get('run-1', 'call-1'))?.status).toBe('pending');
    upgraded.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(currentSchemaVersion);
    check.close();
  });

  it('brings a version 2 file to version 3 (events keyed by run log and offset), keeping every event in order', async () => {
    const path = join(root, 'agents.db');
    const old = fileAtVersion(path, 2);
    const insert = old.prepare('INSERT INTO run_events (run_id, "offset", event) VALUES (?, ?, ?)');
    const delta = (text: string) => ({ kind: 'update', update: { type: 'text-delta', text } }) as const;
    // Two runs whose events were written interleaved, as two agents running at once leave them.
    for (let offset = 1; offset <= 3; offset++) {
      insert.run('run-b', offset, JSON.stringify(delta(`b${offset}`)));
      insert.run('run-a', offset, JSON.stringify(delta(`a${offset}`)));
    }
    old.close();
    const upgraded = createSqliteStore({ path });
    const texts = async (runId: string, afterOffset = 0) =>
      (await upgraded.runEvents.list(runId, { afterOffset })).events.map((stored) => [stored.offset, (stored.event as ReturnType<typeof delta>).update.text]);
    expect(await texts('run-a')).toEqual([[1, 'a1'], [2, 'a2'], [3, 'a3']]);
    expect(await texts('run-b', 1)).toEqual([[2, 'b2'], [3, 'b3']]);
    expect(await upgraded.runEvents.append('run-a', [delta('a4')])).toEqual({ lastOffset: 4 });
    expect(await upgraded.runEvents.append('run-c', [delta('c1')])).toEqual({ lastOffset: 1 });
    expect(await texts('run-b')).toEqual([[1, 'b1'], [2, 'b2'], [3, 'b3']]);
    upgraded.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(3);
    expect(check.prepare('SELECT run_id FROM run_logs ORDER BY log_id').all()).toEqual([{ run_id: 'run-b' }, { run_id: 'run-a' }, { run_id: 'run-c' }]);
    expect(check.prepare("SELECT name FROM sqlite_master WHERE tbl_name = 'run_events' AND type = 'index'").all()).toEqual([]);
    check.close();
  });

  it('reopens an existing store without migrating again and keeps data', async () => {
    const path = join(root, 'agents.db');
    const first = createSqliteStore({ path });
    await first.runEvents.append('run-1', [{ kind: 'update', update: { type: 'text-delta', text: 'kept' } }]);
    first.close();
    first.close();
    const second = createSqliteStore({ path });
    expect((await second.runEvents.list('run-1')).events).toHaveLength(1);
    second.close();
  });
});
