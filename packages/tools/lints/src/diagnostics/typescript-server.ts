import { createRequire } from 'node:module';
import type { LanguageServerConfig } from './diagnostics-settings.js';

export const typescriptLanguages: Record<string, string> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
};

/**
 * typescript-language-server with Cairn's own TypeScript (this package's dependency), never the
 * workspace's: `tsserver.path` points at ours, so no program of the project is started. Its
 * tsserver gets no `--allowLocalPluginLoads`, so tsconfig `plugins` are looked up only beside our
 * TypeScript, never in the project's node_modules; automatic type acquisition (an `npm install`
 * of @types packages) is off; one tsserver, no separate syntax server (half the memory).
 */
export function typescriptServerConfig(): LanguageServerConfig {
  const require = createRequire(import.meta.url);
  const cli = require.resolve('typescript-language-server/lib/cli.mjs');
  const tsserver = require.resolve('typescript/lib/tsserver.js');
  return {
    id: 'typescript',
    command: [process.execPath, cli, '--stdio'],
    languages: typescriptLanguages,
    initializationOptions: {
      tsserver: { path: tsserver, useSyntaxServer: 'never', logVerbosity: 'off' },
      disableAutomaticTypingAcquisition: true,
      hostInfo: 'cairn',
      preferences: { includePackageJsonAutoImports: 'off' },
    },
    diagnostics: 'tsserver',
    rootMarkers: ['tsconfig.json', 'jsconfig.json'],
  };
}
