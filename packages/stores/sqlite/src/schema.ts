import type Database from 'better-sqlite3';
import { corruptStoreError, newerSchemaError } from './store-errors.js';

/** 'Crn1' — marks the file as a Cairn store so a foreign SQLite file is refused, not migrated. */
export const cairnApplicationId = 0x43726e31;

/**
 * Migrations by target version; migration N brings a version N-1 file to N. Append only: a
 * released migration is never edited. `user_version` holds the version.
 */
export const migrations: Readonly<Record<number, string>> = {
  1: `
    CREATE TABLE agents (
      agent_id TEXT PRIMARY KEY,
      cwd TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      archived INTEGER NOT NULL DEFAULT 0,
      checkpoint_root TEXT,
      lease_run_id TEXT,
      lease_owner TEXT,
      lease_expires_at INTEGER,
      record TEXT NOT NULL
    );
    CREATE INDEX agents_by_created ON agents (created_at DESC, agent_id DESC);
    CREATE INDEX agents_by_cwd ON agents (cwd, created_at DESC, agent_id DESC);
    CREATE TABLE blobs (
      hash TEXT PRIMARY KEY,
      data BLOB NOT NULL
    );
    CREATE TABLE runs (
      run_id TEXT PRIMARY KEY,
      agent_id TEXT NOT NULL,
      status TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      record TEXT NOT NULL
    );
    CREATE INDEX runs_by_agent ON runs (agent_id, created_at DESC, run_id DESC);
    CREATE TABLE run_events (
      run_id TEXT NOT NULL,
      "offset" INTEGER NOT NULL,
      event TEXT NOT NULL,
      PRIMARY KEY (run_id, "offset")
    );
  `,
  // Approval requests, answerable from any process: the decision columns change once, from NULL.
  2: `
    CREATE TABLE approvals (
      run_id TEXT NOT NULL,
      call_id TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      status TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      decided_at INTEGER,
      decision TEXT,
      record TEXT NOT NULL,
      PRIMARY KEY (run_id, call_id)
    );
    CREATE INDEX approvals_by_agent ON approvals (agent_id, created_at, call_id);
  `,
  // Each run's log gets a number, and an event's key is (number << 32) | offset: the events of a run
  // are one range of the table's own b-tree, and an append writes its rightmost page, with no
  // (run_id, offset) index beside it to update and split. About half the WAL pages per append.
  3: `
    CREATE TABLE run_logs (
      log_id INTEGER PRIMARY KEY,
      run_id TEXT NOT NULL UNIQUE
    );
    INSERT INTO run_logs (run_id) SELECT run_id FROM run_events GROUP BY run_id ORDER BY MIN(rowid);
    CREATE TABLE run_events_by_key (
      event_key INTEGER PRIMARY KEY,
      event TEXT NOT NULL
    );
    INSERT INTO run_events_by_key (event_key, event)
      SELECT (run_logs.log_id << 32) | run_events."offset", run_events.event FROM run_events JOIN run_logs USING (run_id) ORDER BY 1;
    DROP TABLE run_events;
    ALTER TABLE run_events_by_key RENAME TO run_events;
  `,
};

export const currentSchemaVersion = 3;

function readHeader(database: Database.Database): { version: number; applicationId: number; tableCount: number } {
  return {
    version: database.pragma('user_version', { simple: true }) as number,
    applicationId: database.pragma('application_id', { simple: true }) as number,
    tableCount: (database.prepare("SELECT count(*) AS count FROM sqlite_master WHERE type = 'table'").get() as { count: number }).count,
  };
}

/** Refuses, before anything is written, a foreign file or one from a newer schema. */
export function checkSchema(database: Database.Database, path: string): number {
  const header = readHeader(database);
  if (header.applicationId !== 0 && header.applicationId !== cairnApplicationId) {
    throw corruptStoreError(path, `it is a SQLite database of another application (application_id ${header.applicationId})`);
  }
  if (header.version === 0 && header.tableCount > 0) {
    throw corruptStoreError(path, 'it is a SQLite database with tables that Cairn did not create');
  }
  if (header.version > currentSchemaVersion) throw newerSchemaError(path, header.version, currentSchemaVersion);
  return header.version;
}

/**
 * Brings the file to the current version inside BEGIN IMMEDIATE: two processes migrating at once
 * serialise on the write lock, and the second re-reads the version and finds nothing to do.
 */
export function migrate(database: Database.Database, path: string): void {
  if (checkSchema(database, path) === currentSchemaVersion) return;
  database.exec('BEGIN IMMEDIATE');
  try {
    const version = checkSchema(database, path);
    for (let next = version + 1; next <= currentSchemaVersion; next++) {
      database.exec(migrations[next] as string);
    }
    if (version !== currentSchemaVersion) {
      database.pragma(`application_id = ${cairnApplicationId}`);
      database.pragma(`user_version = ${currentSchemaVersion}`);
    }
    database.exec('COMMIT');
  } catch (error) {
    if (database.inTransaction) database.exec('ROLLBACK');
    throw error;
  }
}
