import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ChunkKind } from './types.js';

/** Languages chunked with tree-sitter; everything else that is text uses line windows. */
export type LanguageId =
  | 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'rust' | 'java' | 'c' | 'cpp' | 'c_sharp' | 'ruby' | 'php' | 'bash';

const extensionLanguages: Record<string, LanguageId> = {
  ts: 'typescript', mts: 'typescript', cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  py: 'python', pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  c: 'c',
  // C++ grammar for headers: it parses C headers too, the C grammar fails on C++ ones.
  h: 'cpp', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp',
  cs: 'c_sharp',
  rb: 'ruby',
  php: 'php',
  sh: 'bash', bash: 'bash',
};

export function languageForPath(path: string): LanguageId | undefined {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  return extensionLanguages[path.slice(dot + 1).toLowerCase()];
}

const require = createRequire(import.meta.url);

/** Grammar `.wasm` files: VS Code's prebuilt set, plus the C grammar from its own package. */
export function grammarPath(language: LanguageId): string {
  if (language === 'c') return join(dirname(require.resolve('tree-sitter-c/package.json')), 'tree-sitter-c.wasm');
  const file = language === 'c_sharp' ? 'tree-sitter-c-sharp.wasm' : `tree-sitter-${language}.wasm`;
  return join(dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm', file);
}

/**
 * Node types that start a chunk, by kind. The names are shared by many grammars (tree-sitter's
 * conventions), so one table serves every language; a function nested in a class or impl is
 * reported as a method.
 */
const definitionKinds: Record<string, ChunkKind> = {
  function_declaration: 'function', generator_function_declaration: 'function', function_definition: 'function',
  function_item: 'function', function_signature_item: 'function', func_literal: 'function', arrow_function: 'function',
  function_expression: 'function', local_function_statement: 'function',
  method_definition: 'method', method_declaration: 'method', method: 'method', singleton_method: 'method',
  method_signature: 'method', abstract_method_signature: 'method', function_signature: 'function',
  constructor_declaration: 'constructor',
  class_declaration: 'class', abstract_class_declaration: 'class', class_definition: 'class', class_specifier: 'class',
  class: 'class', struct_item: 'class', struct_specifier: 'class', struct_declaration: 'class', record_declaration: 'class',
  union_item: 'class', object_declaration: 'class',
  interface_declaration: 'interface', trait_item: 'interface', trait_declaration: 'interface', protocol_declaration: 'interface',
  enum_declaration: 'enum', enum_item: 'enum', enum_specifier: 'enum',
  type_alias_declaration: 'type', type_declaration: 'type', type_item: 'type', type_definition: 'type',
  module: 'module', mod_item: 'module', namespace_declaration: 'module', internal_module: 'module', namespace_definition: 'module',
  module_declaration: 'module',
  impl_item: 'impl',
};

export function definitionKind(nodeType: string): ChunkKind | undefined {
  return definitionKinds[nodeType];
}

/** Containers whose function children are methods. */
export function isClassLike(kind: ChunkKind | undefined): boolean {
  return kind === 'class' || kind === 'interface' || kind === 'impl' || kind === 'module';
}
