import type { IndexStore } from './index-store.js';
import type { FolderListing, ScanResult, SkipReason } from './scan-workspace.js';

/**
 * What the last complete `sync()` saw, kept in the index's `meta` table: each folder's listing with
 * its files' sizes and mtimes, and the files found binary or unreadable. The next sync reuses the
 * listings of unchanged folders, and when every file is exactly as recorded it answers "unchanged"
 * without reading the files table or writing anything: that is what makes `cairn search` on an
 * unchanged tree cost a stat per file and little more.
 */
export interface ScanState {
  version: 2;
  maxFileBytes: number;
  maxFiles: number;
  folders: Record<string, FolderListing>;
  /** Files that were not indexed because of what reading them showed. */
  skippedWhenRead: Record<string, SkipReason>;
}

const metaKey = 'scan_state';

export function readScanState(store: IndexStore, limits: { maxFileBytes: number; maxFiles: number }): ScanState | undefined {
  const text = store.getMeta(metaKey);
  if (!text) return undefined;
  try {
    const state = JSON.parse(text) as ScanState;
    return state.version === 2 && state.maxFileBytes === limits.maxFileBytes && state.maxFiles === limits.maxFiles ? state : undefined;
  } catch {
    return undefined;
  }
}

/** Forget the state: the index no longer matches what it describes (a sync in progress, removeFiles). */
export function clearScanState(store: IndexStore): void {
  store.setMeta(metaKey, '');
}

export function writeScanState(store: IndexStore, scan: ScanResult, limits: { maxFileBytes: number; maxFiles: number }, skippedWhenRead: Map<string, SkipReason>): void {
  const state: ScanState = { version: 2, ...limits, folders: scan.folders, skippedWhenRead: Object.fromEntries(skippedWhenRead) };
  store.setMeta(metaKey, JSON.stringify(state));
}
