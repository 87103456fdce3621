import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { ConfigurationError } from '@cairn/core';
import { withBusyRetrySync } from './busy-retry.js';
import { checkSchema, currentSchemaVersion, migrate } from './schema.js';

const walSizeLimitBytes = 16 * 1024 * 1024;

export interface SqliteStoreOptions {
  /** The database file. Default: `<home>/agents.db`. */
  path?: string;
  /** The Cairn home folder when `path` is not given. Default: `$CAIRN_HOME`, else `~/.cairn`. */
  home?: string;
  /** How long SQLite waits for another process's lock before retrying (ms). Default 5000. */
  busyTimeoutMs?: number;
}

export function resolveDatabasePath(options: SqliteStoreOptions): string {
  if (options.path !== undefined) return resolve(options.path);
  const home = options.home ?? process.env.CAIRN_HOME ?? join(homedir(), '.cairn');
  return resolve(home, 'agents.db');
}

type DatabaseConstructor = new (path: string, options?: Database.Options) => Database.Database;
let loaded: DatabaseConstructor | undefined;
let addonOptions: Database.Options = {};

/**
 * better-sqlite3 is a native module: it loads on the first open, not at import, so a host whose
 * build of it is missing or broken can still import Cairn and fall back to another store.
 */
export function loadSqlite(): DatabaseConstructor {
  if (loaded) return loaded;
  try {
    const require = createRequire(import.meta.url);
    loaded = require('better-sqlite3') as DatabaseConstructor;
    // The addon where npm builds or unpacks it: naming it skips the `bindings` package's search
    // (a stack-trace walk and several failed lookups, 2-4 ms at every start). Elsewhere (a debug
    // build, another layout) better-sqlite3 searches as before.
    const addon = join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
    if (existsSync(addon)) addonOptions = { nativeBinding: addon };
    return loaded;
  } catch (error) {
    throw new ConfigurationError(
      `The SQLite store needs the native module better-sqlite3, which did not load (${(error as Error).message.split('\n')[0]}). Reinstall it for this Node version (npm rebuild better-sqlite3), or use the JSONL store.`,
      { code: 'sqlite_unavailable', cause: error },
    );
  }
}

/** Opens (creating when missing) and migrates the database; refuses corrupt and newer files. */
export function openDatabase(path: string, options: SqliteStoreOptions): Database.Database {
  // The store holds conversations and file contents: keep the folder private to the user.
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const created = !existsSync(path);
  const SqliteDatabase = loadSqlite();
  const database = new SqliteDatabase(path, addonOptions);
  // SQLite gives the -wal and -shm files the main file's permissions, so this covers all three.
  if (created) chmodSync(path, 0o600);
  try {
    database.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    // Read the header before any write, so a damaged or newer file is refused untouched.
    const version = withBusyRetrySync(path, () => checkSchema(database, path));
    withBusyRetrySync(path, () => database.pragma('journal_mode = WAL'));
    // NORMAL in WAL mode: a commit is in the WAL file before it returns, so it survives the process
    // being killed (kill -9, a crash); only an OS crash or power loss can lose the last few commits,
    // and never corrupts the file. FULL would fsync every commit: ~10x the cost of an event append.
    database.pragma('synchronous = NORMAL');
    // After a checkpoint the WAL file is cut back to this size instead of staying at its largest.
    database.pragma(`journal_size_limit = ${walSizeLimitBytes}`);
    // An up-to-date file (every open after the first) costs only the header read above.
    if (version !== currentSchemaVersion) withBusyRetrySync(path, () => migrate(database, path));
    return database;
  } catch (error) {
    database.close();
    throw error;
  }
}
