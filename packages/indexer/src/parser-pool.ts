import type { Language, Parser, Tree } from 'web-tree-sitter';
import { grammarPath, type LanguageId } from './languages.js';

type TreeSitter = typeof import('web-tree-sitter');

/**
 * One web-tree-sitter runtime per process, grammars loaded on first use. Parsing is synchronous
 * once a grammar is loaded; trees must be deleted by the caller (they live in wasm memory). The
 * runtime (155 KB of JavaScript) is imported on the first parse, not with the package: a search
 * on an unchanged tree parses nothing and should not pay for compiling it.
 */
let runtime: Promise<TreeSitter> | undefined;
let loaded: TreeSitter | undefined;
const languages = new Map<LanguageId, Promise<Language | undefined>>();
let parser: Parser | undefined;

async function loadRuntime(): Promise<TreeSitter> {
  const treeSitter = await import('web-tree-sitter');
  await treeSitter.Parser.init();
  loaded = treeSitter;
  return treeSitter;
}

async function loadLanguage(language: LanguageId): Promise<Language | undefined> {
  runtime ??= loadRuntime();
  const { Language } = await runtime;
  try {
    return await Language.load(grammarPath(language));
  } catch {
    // A grammar that does not load degrades that language to line windows, never the whole index.
    return undefined;
  }
}

export async function parse(language: LanguageId, text: string): Promise<Tree | undefined> {
  let loading = languages.get(language);
  if (!loading) {
    loading = loadLanguage(language);
    languages.set(language, loading);
  }
  const grammar = await loading;
  if (!grammar) return undefined;
  // A grammar loaded, so the runtime has.
  parser ??= new (loaded as TreeSitter).Parser();
  parser.setLanguage(grammar);
  return parser.parse(text) ?? undefined;
}
