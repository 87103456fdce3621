import type { Node as SyntaxNode, Parser as TreeSitterParser } from 'web-tree-sitter';

export type { SyntaxNode };

let parserPromise: Promise<TreeSitterParser> | undefined;

/**
 * Loads tree-sitter-bash once per process. The grammar is the prebuilt wasm shipped by
 * `@vscode/tree-sitter-wasm`; web-tree-sitter runs it. Node modules are imported lazily so that
 * importing the permissions module does not pull file-system code into a bundle until a shell
 * command is actually analysed.
 */
export function loadBashParser(): Promise<TreeSitterParser> {
  parserPromise ??= (async () => {
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
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
