// What a sync found in the tree, and the summary of what it skipped: the parts of a SyncResult
// that do not depend on the index itself.
import { type ScanState, stateFiles } from './scan-state.js';
import type { ScannedFile, ScanResult, SkipReason } from './scan-workspace.js';
import type { SkippedFile, SyncResult } from './types.js';

export interface FileCounts {
  indexedFiles: number;
  removedFiles: number;
  unchangedFiles: number;
  chunks: number;
}

/** What a sync found in the tree: counts, skipped files, and the scan when it walked. */
export interface TreeSync {
  unchanged: boolean;
  totalFiles: number;
  counts: FileCounts;
  skips: Map<string, SkipReason>;
  tooLarge: ScannedFile[];
  sizeOf(path: string): number;
  scan?: ScanResult;
}

/** The sync of a tree that matched its scan state: everything from the state. */
export function unchangedTree(state: ScanState): TreeSync {
  const files = stateFiles(state);
  const skips = new Map(Object.entries(state.skippedWhenRead));
  const counts = { indexedFiles: 0, removedFiles: 0, unchangedFiles: files.files - skips.size, chunks: 0 };
  return { unchanged: true, totalFiles: files.files, counts, skips, tooLarge: files.tooLarge, sizeOf: files.sizeOf };
}

/** Skipped files by reason, and the largest few (for `cairn index` to name). */
export function skippedSummary(tooLarge: ScannedFile[], skips: Map<string, SkipReason>, sizeOf: (path: string) => number): { total: number; counts: SyncResult['skipped']; largest: SkippedFile[] } {
  const counts = { tooLarge: tooLarge.length, binary: 0, unreadable: 0 };
  const all: SkippedFile[] = tooLarge.map((file) => ({ path: file.path, bytes: file.size, reason: 'tooLarge' }));
  for (const [path, reason] of skips) {
    counts[reason]++;
    all.push({ path, bytes: sizeOf(path), reason });
  }
  all.sort((left, right) => right.bytes - left.bytes || (left.path < right.path ? -1 : 1));
  return { total: counts.tooLarge + counts.binary + counts.unreadable, counts, largest: all.slice(0, 5) };
}
