import type { Node as SyntaxNode, Parser as TreeSitterParser } from 'web-tree-sitter';

export type { SyntaxNode };

let parserPromise: Promise<TreeSitterParser> | undefined;

type NodeModule = { createRequire(from: string): { resolve(id: string): string } };

/**
 * Loads tree-sitter-bash once per process. The grammar is the prebuilt wasm shipped by
 * `@vscode/tree-sitter-wasm`; web-tree-sitter runs it. The wasm file is found through Node's resolver,
 * taken with `getBuiltinModule` rather than imported, so the modules that analyse shell commands stay
 * in the browser-safe root entry's graph; outside Node, analysing a command fails with this message.
 */
export function loadBashParser(): Promise<TreeSitterParser> {
  parserPromise ??= (async () => {
    const nodeModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:module') as NodeModule | undefined;
    if (!nodeModule) throw new Error('Shell command analysis runs on Node.js only (it loads the tree-sitter-bash grammar from node_modules); run the agent runtime in Node.');
    const require = nodeModule.createRequire(import.meta.url);
    const { Parser, Language } = await import('web-tree-sitter');
    await Parser.init();
    const language = await Language.load(require.resolve('@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  parserPromise.catch(() => {
    parserPromise = undefined;
  });
  return parserPromise;
}
