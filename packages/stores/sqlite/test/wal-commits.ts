import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Counts the pages (frames) and transactions written to a SQLite file's write-ahead log, from the
 * log itself: each commit ends with a frame whose "database size after commit" field is set. A second connection
 * holds a read transaction open meanwhile, so SQLite cannot checkpoint and restart the log.
 */
export class WalCommitCounter {
  private readonly reader: Database.Database;

  constructor(private readonly path: string) {
    this.reader = new Database(path, { readonly: true });
    this.reader.exec('BEGIN');
    this.reader.prepare('SELECT count(*) FROM sqlite_schema').get();
  }

  /** Commits in the log so far. */
  commits(): number {
    return this.read().commits;
  }

  /** Pages written to the log so far (one frame each). */
  frames(): number {
    return this.read().frames;
  }

  /** Frames of the current log generation only: their salts match the header's. */
  private read(): { frames: number; commits: number } {
    let wal: Buffer;
    try {
      wal = readFileSync(`${this.path}-wal`);
    } catch {
      return { frames: 0, commits: 0 };
    }
    if (wal.length < 32) return { frames: 0, commits: 0 };
    const pageSize = wal.readUInt32BE(8);
    const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
    let frames = 0;
    let commits = 0;
    for (let offset = 32; offset + 24 + pageSize <= wal.length; offset += 24 + pageSize) {
      if (wal.readUInt32BE(offset + 8) !== salts[0] || wal.readUInt32BE(offset + 12) !== salts[1]) break;
      frames++;
      if (wal.readUInt32BE(offset + 4) !== 0) commits++;
    }
    return { frames, commits };
  }

  close(): void {
    this.reader.exec('COMMIT');
    this.reader.close();
  }
}
