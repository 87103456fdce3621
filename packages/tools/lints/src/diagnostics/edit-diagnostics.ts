import { existsSync } from 'node:fs';
import { extname, relative } from 'node:path';
import { type EditFeedbackProvider, type EditFeedbackRequest, type EditFeedbackSession, type EditFeedbackWorkspace, type FileChange, lazyImplementation } from '@cairn/core';
import { type LanguageServerConfig, type ResolvedDiagnosticsSettings, resolveDiagnosticsSettings } from './diagnostics-settings.js';
import { type FileDiagnosticsReport, formatEditDiagnostics } from './format-edit-diagnostics.js';
import { typescriptServerConfig } from './typescript-server.js';

// The servers and their client load when a server is first needed: registering the pack starts nothing.
const pool = lazyImplementation(() => import('./server-pool.js'));
const checks = lazyImplementation(() => import('./check-edited-file.js'));

/** Files larger than this are not sent to a language server after an edit. */
const maxCheckedBytes = 2 * 1024 * 1024;

/**
 * Diagnostics after edits (`CairnPlugin.editFeedback`): a language server per workspace root,
 * started in the background when an agent is created (when the root has one of the server's marker
 * files, e.g. tsconfig.json; otherwise at the first edit of one of its files), and asked after each
 * edit for the diagnostics of the new text. Off with `toolSettings.diagnostics: false`, or
 * `CAIRN_DIAGNOSTICS=off` in the agent's environment (the CLI's `--no-diagnostics`).
 */
export const editDiagnosticsProvider: EditFeedbackProvider = {
  open(workspace) {
    if (['off', '0', 'false', 'no'].includes((workspace.env.CAIRN_DIAGNOSTICS ?? '').trim().toLowerCase())) return undefined;
    const settings = resolveDiagnosticsSettings(workspace.settings);
    return settings ? new EditDiagnosticsSession(workspace, settings) : undefined;
  },
};

class EditDiagnosticsSession implements EditFeedbackSession {
  readonly label = 'diagnostics';
  /** The runtime's bound is a safety net: this session answers by its own deadline first. */
  readonly timeoutMs: number;
  private readonly configs: LanguageServerConfig[];
  private readonly held = new Map<string, Promise<import('./server-pool.js').ServerEntry>>();
  private closed = false;

  constructor(
    private readonly workspace: EditFeedbackWorkspace,
    private readonly settings: ResolvedDiagnosticsSettings,
  ) {
    this.timeoutMs = settings.timeoutMs + 2000;
    this.configs = [...(settings.typescript ? [typescriptServerConfig()] : []), ...settings.servers];
    for (const config of this.configs) {
      if (config.rootMarkers?.some((marker) => existsSync(`${workspace.cwd}/${marker}`))) void this.entryFor(config).catch(() => undefined);
    }
  }

  async afterEdit(request: EditFeedbackRequest): Promise<string | undefined> {
    const deadline = AbortSignal.any([request.signal, AbortSignal.timeout(this.settings.timeoutMs)]);
    const reports = await Promise.all(request.changes.map((change) => this.reportFor(change, deadline)));
    const shown = reports.filter((report): report is FileDiagnosticsReport => report !== undefined);
    return formatEditDiagnostics(shown, { maxDiagnostics: this.settings.maxDiagnostics, timeoutMs: this.settings.timeoutMs });
  }

  async close(): Promise<void> {
    this.closed = true;
    const held = [...this.held.values()];
    this.held.clear();
    // A session that never needed a server must not load the client (the LSP libraries) to close.
    if (held.length === 0) return;
    const { releaseServer } = await pool();
    await Promise.all(held.map(async (entry) => releaseServer(await entry).catch(() => undefined)));
  }

  private async reportFor(change: FileChange, deadline: AbortSignal): Promise<FileDiagnosticsReport | undefined> {
    const config = this.configs.find((candidate) => candidate.languages[extname(change.path).toLowerCase()] !== undefined);
    if (!config || this.closed) return undefined;
    const path = relative(this.workspace.cwd, change.path).split('\\').join('/');
    const server = serverName(config);
    const entry = await this.entryFor(config);
    if (change.after === null) {
      await entry.server?.forget(change.path);
      return undefined;
    }
    if (change.after.byteLength > maxCheckedBytes) return { path, server, status: 'skipped', reason: 'the file is over 2 MiB' };
    return (await checks()).checkEditedFile(entry, { path, absolute: change.path, before: change.before, after: change.after, server }, deadline);
  }

  private entryFor(config: LanguageServerConfig): Promise<import('./server-pool.js').ServerEntry> {
    let entry = this.held.get(config.id);
    if (!entry) {
      entry = pool().then(({ acquireServer }) => acquireServer(this.workspace.cwd, config, this.workspace.env));
      this.held.set(config.id, entry);
    }
    return entry;
  }
}

function serverName(config: LanguageServerConfig): string {
  return config.id === 'typescript' ? 'typescript-language-server' : config.id;
}

