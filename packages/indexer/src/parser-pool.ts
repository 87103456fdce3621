import { Language, Parser, type Tree } from 'web-tree-sitter';
import { grammarPath, type LanguageId } from './languages.js';

/**
 * One web-tree-sitter runtime per process, grammars loaded on first use. Parsing is synchronous
 * once a grammar is loaded; trees must be deleted by the caller (they live in wasm memory).
 */
let initialised: Promise<void> | undefined;
const languages = new Map<LanguageId, Promise<Language | undefined>>();
let parser: Parser | undefined;

async function loadLanguage(language: LanguageId): Promise<Language | undefined> {
  initialised ??= Parser.init();
  await initialised;
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
  parser ??= new Parser();
  parser.setLanguage(grammar);
  return parser.parse(text) ?? undefined;
}
