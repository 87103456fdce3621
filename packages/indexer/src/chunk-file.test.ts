import { describe, expect, it } from 'vitest';
import { chunkFile } from './chunk-file.js';

const summary = (chunks: Awaited<ReturnType<typeof chunkFile>>) => chunks.map((chunk) => `${chunk.startLine}-${chunk.endLine} ${chunk.kind} ${chunk.symbol ?? ''}`.trim());
// Tiny budgets (no merging) show every cut point in these short snippets; doc comments stay with
// the definition below them and closing braces with the definition they close.
const small = { maxChars: 120, minChars: 1 };

describe('chunkFile per language', () => {
  it('cuts TypeScript at functions, classes and methods', async () => {
    const source = [
      "import { readFile } from 'node:fs/promises';",
      '',
      '/** Loads the settings file. */',
      'export async function loadSettings(path: string) {',
      "  return JSON.parse(await readFile(path, 'utf8'));",
      '}',
      '',
      'export class SettingsStore {',
      '  private cache = new Map<string, unknown>();',
      '  get(key: string) {',
      '    return this.cache.get(key);',
      '  }',
      '  set(key: string, value: unknown) {',
      '    this.cache.set(key, value);',
      '  }',
      '}',
      'export const parseFlag = (value: string) => value === "true";',
      'interface Options { verbose: boolean }',
    ].join('\n');
    const chunks = await chunkFile('src/settings.ts', source, small);
    expect(summary(chunks)).toEqual([
      '1-1 block',
      '2-6 function loadSettings',
      '7-8 class SettingsStore',
      '9-9 class SettingsStore',
      '10-12 method SettingsStore.get',
      '13-16 method SettingsStore.set',
      '17-17 function parseFlag',
      '18-18 interface Options',
    ]);
    // Every line belongs to exactly one chunk, in order.
    expect(chunks.map((chunk) => chunk.text).join('\n')).toBe(source);
  });

  it('cuts Python at classes and methods (decorated too)', async () => {
    const source = ['import os', '', 'class Cache:', '    """A tiny cache."""', '    def get(self, key):', '        return self.items.get(key)', '', '    @staticmethod', '    def build():', '        return Cache()', '', 'def main():', '    print(os.getcwd())', ''].join('\n');
    const chunks = await chunkFile('cache.py', source, { maxChars: 60, minChars: 1 });
    expect(summary(chunks)).toEqual(['1-1 block', '2-3 class Cache', '4-4 class Cache', '5-6 method Cache.get', '7-10 method Cache.build', '11-13 function main']);
  });

  it('cuts Go at functions, methods and types', async () => {
    const source = ['package store', '', 'type Store struct {', '\titems map[string]int', '}', '', 'func (s *Store) Get(key string) int {', '\treturn s.items[key]', '}', '', 'func New() *Store {', '\treturn &Store{items: map[string]int{}}', '}', ''].join('\n');
    expect(summary(await chunkFile('store.go', source, { maxChars: 80, minChars: 1 }))).toEqual(['1-1 block', '2-5 type Store', '6-9 method Store.Get', '10-13 function New']);
  });

  it('cuts Rust at structs, impls and their functions', async () => {
    const source = ['pub struct Counter {', '    value: u32,', '}', '', 'impl Counter {', '    pub fn increment(&mut self) {', '        self.value += 1;', '    }', '    pub fn get(&self) -> u32 {', '        self.value', '    }', '}', '', 'fn helper() -> u32 { 1 }', ''].join('\n');
    expect(summary(await chunkFile('lib.rs', source, { maxChars: 70, minChars: 1 }))).toEqual([
      '1-3 class Counter', '4-5 impl Counter', '6-8 method Counter.increment', '9-12 method Counter.get', '13-14 function helper',
    ]);
  });

  it('cuts Java at classes, constructors and methods', async () => {
    const source = ['package demo;', '', 'public class Greeter {', '    private final String name;', '    public Greeter(String name) {', '        this.name = name;', '    }', '    public String greet() {', '        return "Hello " + name;', '    }', '}', ''].join('\n');
    expect(summary(await chunkFile('Greeter.java', source, { maxChars: 70, minChars: 1 }))).toEqual([
      '1-1 block', '2-3 class Greeter', '4-4 class Greeter', '5-7 constructor Greeter.Greeter', '8-11 method Greeter.greet',
    ]);
  });

  it('names C, C++, C#, Ruby and PHP definitions', async () => {
    const cases: Array<[string, string, string]> = [
      ['math.c', 'int add(int a, int b) {\n  return a + b;\n}\n', 'add'],
      ['shape.cpp', 'class Shape {\n public:\n  virtual double area() const = 0;\n};\n', 'Shape'],
      ['Program.cs', 'class Program {\n  static void Main() {\n    System.Console.WriteLine("hi");\n  }\n}\n', 'Program'],
      ['user.rb', 'class User\n  def name\n    @name\n  end\nend\n', 'User'],
      ['index.php', '<?php\nfunction render($view) {\n  return $view;\n}\n', 'render'],
    ];
    for (const [path, source, symbol] of cases) {
      const chunks = await chunkFile(path, source);
      expect(chunks.map((chunk) => chunk.symbol), path).toContain(symbol);
    }
  });
});

describe('chunkFile sizes and fallbacks', () => {
  it('splits an oversized function by statements and keeps its name', async () => {
    const body = Array.from({ length: 260 }, (_, index) => `  const value${index} = compute(${index}) + offset;`).join('\n');
    const source = `export function huge(offset: number) {\n${body}\n  return value0;\n}\n`;
    const chunks = await chunkFile('huge.ts', source);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.symbol).toBe('huge');
      expect(chunk.text.length).toBeLessThanOrEqual(2400);
    }
    expect(chunks[0]?.startLine).toBe(1);
    expect(chunks.at(-1)?.endLine).toBe(263);
  });

  it('merges small siblings into one chunk', async () => {
    const source = Array.from({ length: 6 }, (_, index) => `export const flag${index} = ${index};`).join('\n');
    const chunks = await chunkFile('flags.ts', source);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ startLine: 1, endLine: 6 });
  });

  it('lists every name a merged chunk defines, class members included', async () => {
    const source = 'function getDecade(date: Date) {\n  return date;\n}\nclass Store {\n  size = 0;\n  get(key: string) { return key; }\n}\n';
    const chunks = await chunkFile('helpers.ts', source);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.definedSymbols).toEqual(expect.arrayContaining(['getDecade', 'Store', 'size', 'get']));
  });

  it('keeps exported functions and classes in their own chunks; statements, private helpers and exported constants merge among themselves', async () => {
    const source = [
      "import { join } from 'node:path';",
      'const separator = "/";',
      'function trimSlashes(path: string) {',
      '  return path.replace(/^\\/+|\\/+$/g, "");',
      '}',
      'export function joinPaths(left: string, right: string) {',
      '  return join(trimSlashes(left), right);',
      '}',
      'export class PathCache {',
      '  entries = new Map<string, string>();',
      '}',
      'export const rootPath = "/";',
      'export const homePath = "~";',
    ].join('\n');
    expect(summary(await chunkFile('src/paths.ts', source))).toEqual(['1-5 function trimSlashes', '6-8 function joinPaths', '9-11 class PathCache', '12-13 variable rootPath']);
    // In Go a capitalised name is exported; in Rust `pub`.
    const go = 'package paths\n\nfunc helper() string { return "" }\n\nfunc Join(a string) string { return a }\n';
    expect(summary(await chunkFile('paths.go', go))).toEqual(['1-3 function helper', '4-5 function Join']);
    const rust = 'fn helper() -> u8 { 1 }\npub fn join() -> u8 { helper() }\n';
    expect(summary(await chunkFile('paths.rs', rust))).toEqual(['1-1 function helper', '2-2 function join']);
  });

  it('uses overlapping 60-line windows for files without a grammar', async () => {
    const source = Array.from({ length: 130 }, (_, index) => `line ${index + 1}`).join('\n');
    const chunks = await chunkFile('notes.txt', source);
    expect(chunks.map((chunk) => [chunk.startLine, chunk.endLine, chunk.kind])).toEqual([[1, 60, 'lines'], [51, 110, 'lines'], [101, 130, 'lines']]);
  });

  it('still chunks a file with syntax errors', async () => {
    const chunks = await chunkFile('broken.ts', 'function ok() { return 1 }\nfunction broken( {\n');
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.map((chunk) => chunk.text).join('\n')).toContain('broken(');
  });
});
