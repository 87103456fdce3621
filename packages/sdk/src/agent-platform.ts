import type { AgentOptions } from '@cairn/core';
import { prewarmWorkspaceScan } from '@cairn/core/node';

/** What `prewarmLocalWorkspace` resolves to: call it when the host shuts down. */
export interface PrewarmRelease {
  (): Promise<void>;
  /**
   * Cairn: settles when the background codebase index sync has ended. Never rejects: an index that
   * could not be synced here is synced by the first `codebase_search` instead.
   */
  readonly ready: Promise<void>;
}

export interface AgentPlatform {
  /**
   * Pay a workspace's first-send cost ahead, for the AgentOptions your agents will use: the folder
   * check, rules and settings files of `local.settingSources`, the project layout (reused by sends
   * while `Cairn.configure({ local: { workspaceScanCacheTtlMs } })` keeps them), and a sync of the
   * codebase index in the background. Resolves once the workspace scan is done.
   */
  prewarmLocalWorkspace(options: AgentOptions): Promise<PrewarmRelease>;
}

/** The host-level entry point of the reference SDK: today it prewarms local workspaces. */
export async function createAgentPlatform(): Promise<AgentPlatform> {
  return { prewarmLocalWorkspace };
}

async function prewarmLocalWorkspace(options: AgentOptions): Promise<PrewarmRelease> {
  // A bad cwd or a broken settings file rejects this call; nothing has started yet.
  const root = await prewarmWorkspaceScan(options);
  const controller = new AbortController();
  // The same index file codebase_search opens (it lives under $CAIRN_HOME). The indexer (tree-sitter,
  // sqlite-vec, its own SQLite connection) is imported here, not when the SDK is: a host that never
  // prewarms does not pay for loading it.
  const opening = import('@cairn/indexer').then(({ createIndex }) => createIndex({ cwd: root }));
  // Both failures end here, handled: a host must never see an unhandled rejection from a warm-up.
  const ready = opening.then((index) => index.sync({ abortSignal: controller.signal })).then(
    () => undefined,
    () => undefined,
  );
  let released: Promise<void> | undefined;
  const release = () => {
    released ??= (async () => {
      controller.abort();
      await ready;
      await opening.then(
        (index) => index.close(),
        () => undefined,
      );
    })();
    return released;
  };
  return Object.assign(release, { ready });
}
