// biome-ignore-all lint/suspicious/noTemplateCurlyInString: examples of the ${...} placeholders config files use
import { isAbsolute, resolve } from 'node:path';
import type { McpServerConfig, McpServerOrigin, McpStdioServerConfig } from '@cairn/core';
import { mcpServerConfigHash } from './config-hash.js';
import { configProblem } from './config-problem.js';
import { expandPlaceholders, type PlaceholderValues } from './expand-placeholders.js';

/** One server as a source declares it: inline, or an entry of a config file. */
export interface ServerDeclaration {
  name: string;
  origin: McpServerOrigin;
  /** The config file, for project and user servers. */
  file?: string;
  /** The config as written (before expansion): what the trust check sees. */
  written: unknown;
  /** Hash of `written`: a project server's trust is remembered by it. */
  writtenHash: string;
  /** Ready to start: placeholders expanded, a relative stdio `cwd` resolved. Absent when `problem` says why. */
  config?: McpServerConfig;
  /** Hash of `config`: one connection per server name and this hash. */
  configHash?: string;
  /** Why the server cannot be used (shape, a missing variable). */
  problem?: string;
}

export interface DeclarationSource {
  origin: McpServerOrigin;
  file?: string;
  /** A relative stdio `cwd` is resolved against this folder. */
  base: string;
  placeholders: PlaceholderValues;
}

/** Checks `written`, expands its placeholders and resolves its `cwd`; problems are kept, not thrown. */
export function declareServer(name: string, written: unknown, source: DeclarationSource): ServerDeclaration {
  const declaration: ServerDeclaration = { name, origin: source.origin, written, writtenHash: mcpServerConfigHash(written) };
  if (source.file !== undefined) declaration.file = source.file;
  const from = source.file === undefined ? '' : ` (in ${source.file})`;
  const shapeProblem = configProblem(name, written, { beforeExpansion: true });
  if (shapeProblem) return { ...declaration, problem: `${shapeProblem}${from}` };
  const expanded = expandPlaceholders(written as McpServerConfig, source.placeholders);
  if (!expanded.ok) return { ...declaration, problem: placeholderProblem(name, from, expanded) };
  const expandedProblem = configProblem(name, expanded.value);
  if (expandedProblem) return { ...declaration, problem: `${expandedProblem}${from}` };
  const config = withResolvedCwd(expanded.value, source.base);
  return { ...declaration, config, configHash: mcpServerConfigHash(config) };
}

function placeholderProblem(name: string, from: string, expansion: { missing: string[]; unsupported: string[] }): string {
  if (expansion.missing.length > 0) {
    const names = expansion.missing.join(', ');
    const verb = expansion.missing.length === 1 ? 'is' : 'are';
    return (
      `MCP server "${name}"${from} was left out: its config uses ${names}, which ${verb} not set in the agent's environment. ` +
      `Set ${names} (or pass it in the agent's env), or write a default as \${${expansion.missing[0]}:-value}`
    );
  }
  return (
    `MCP server "${name}"${from} was left out: ${expansion.unsupported.join(', ')} is not a placeholder Cairn knows; ` +
    'use ${env:NAME}, ${NAME}, ${workspaceFolder}, ${workspaceFolderBasename}, ${userHome} or ${pathSeparator}'
  );
}

function withResolvedCwd(config: McpServerConfig, base: string): McpServerConfig {
  const stdio = config as McpStdioServerConfig;
  if (typeof stdio.cwd !== 'string' || isAbsolute(stdio.cwd)) return config;
  return { ...stdio, cwd: resolve(base, stdio.cwd) };
}
