import { ConfigurationError } from '@cairn/core';

/**
 * A language server that reports diagnostics, as data: so a Python or Go server is added by
 * configuration (`toolSettings.diagnostics.servers`). The built-in one is TypeScript's.
 */
export interface LanguageServerConfig {
  /** Names the server in messages and keys its process: one per workspace root and id. */
  id: string;
  /** argv of a server speaking LSP over stdio; the first word is the program (`pyright-langserver`, `--stdio`). */
  command: string[];
  /** File extensions it checks, with the LSP language id of each: `{ ".py": "python" }`. */
  languages: Record<string, string>;
  /** `initializationOptions` of the LSP `initialize` request. */
  initializationOptions?: unknown;
  /**
   * How the diagnostics of one document version are fetched: `pull` (`textDocument/diagnostic`,
   * LSP 3.17) or `push` (the `publishDiagnostics` that names that version). Default: `pull` when the
   * server offers it, else `push`. The built-in TypeScript server uses `tsserver` (see
   * typescript-server.ts).
   */
  diagnostics?: 'pull' | 'push' | 'tsserver';
  /** Files whose presence in the workspace root starts the server when the agent is created; otherwise it starts at the first edit of one of its files. */
  rootMarkers?: string[];
}

/** `toolSettings.diagnostics`: `false` switches diagnostics after edits off. */
export interface DiagnosticsSettings {
  /** Default true. */
  enabled?: boolean;
  /** Longest wait for an edit's diagnostics, server start included. Default 3,000 ms. */
  timeoutMs?: number;
  /** Most diagnostic lines appended to one result. Default 20. */
  maxDiagnostics?: number;
  /** Extra language servers, beside the built-in TypeScript one. */
  servers?: LanguageServerConfig[];
  /** `false` leaves the built-in TypeScript server out. */
  typescript?: boolean;
}

export interface ResolvedDiagnosticsSettings {
  timeoutMs: number;
  maxDiagnostics: number;
  servers: LanguageServerConfig[];
  typescript: boolean;
}

/** The agent's diagnostics settings, or undefined when they are switched off. Bad shapes are a ConfigurationError naming the fix. */
export function resolveDiagnosticsSettings(settings: Record<string, unknown>): ResolvedDiagnosticsSettings | undefined {
  const given = settings.diagnostics;
  if (given === false) return undefined;
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) {
    throw new ConfigurationError('toolSettings.diagnostics must be false (off) or an object like { timeoutMs: 3000, maxDiagnostics: 20 }.');
  }
  const options = (given ?? {}) as DiagnosticsSettings;
  if (options.enabled === false) return undefined;
  const positive = (value: unknown, name: string, fallback: number) => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new ConfigurationError(`toolSettings.diagnostics.${name} must be a positive number; got ${JSON.stringify(value)}.`);
    return Math.floor(value);
  };
  const servers = options.servers ?? [];
  if (!Array.isArray(servers)) throw new ConfigurationError('toolSettings.diagnostics.servers must be a list of { id, command: [...], languages: { ".ext": "languageId" } }.');
  servers.forEach(checkServerConfig);
  return {
    timeoutMs: positive(options.timeoutMs, 'timeoutMs', 3000),
    maxDiagnostics: positive(options.maxDiagnostics, 'maxDiagnostics', 20),
    servers,
    typescript: options.typescript !== false,
  };
}

function checkServerConfig(server: LanguageServerConfig, index: number): void {
  const where = `toolSettings.diagnostics.servers[${index}]`;
  if (typeof server !== 'object' || server === null) throw new ConfigurationError(`${where} must be an object { id, command, languages }.`);
  if (typeof server.id !== 'string' || server.id === '') throw new ConfigurationError(`${where}.id must be a non-empty name, e.g. "pyright".`);
  if (!Array.isArray(server.command) || server.command.length === 0 || server.command.some((word) => typeof word !== 'string' || word === '')) {
    throw new ConfigurationError(`${where}.command must be the server's argv, e.g. ["pyright-langserver", "--stdio"].`);
  }
  const languages = server.languages;
  if (typeof languages !== 'object' || languages === null || Object.keys(languages).length === 0 || Object.entries(languages).some(([ext, id]) => !ext.startsWith('.') || typeof id !== 'string')) {
    throw new ConfigurationError(`${where}.languages must map file extensions to language ids, e.g. { ".py": "python" }.`);
  }
  if (server.diagnostics !== undefined && !['pull', 'push', 'tsserver'].includes(server.diagnostics)) {
    throw new ConfigurationError(`${where}.diagnostics must be "pull", "push" or "tsserver".`);
  }
}
