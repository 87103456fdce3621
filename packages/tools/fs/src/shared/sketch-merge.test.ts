import { describe, expect, it } from 'vitest';
import { isExistingCodeMarker, mergeSketch } from './sketch-merge.js';

const lines = (...parts: string[]) => `${parts.join('\n')}\n`;

describe('isExistingCodeMarker', () => {
  it('recognises the marker in every common comment syntax', () => {
    for (const marker of [
      '// ... existing code ...',
      '  # ... existing code ...',
      '/* ... existing code ... */',
      '<!-- ... existing code ... -->',
      '-- ... existing code ...',
      '; ... existing code ...',
      '{/* ... existing code ... */}',
      '// ... existing code (imports) ...',
      '# … existing code …',
      '// ... rest of the file ...',
    ]) {
      expect(isExistingCodeMarker(marker), marker).toBe(true);
    }
    expect(isExistingCodeMarker('const existing = code;')).toBe(false);
    expect(isExistingCodeMarker('// existing code is fine')).toBe(false);
  });
});

describe('mergeSketch: TypeScript', () => {
  const greeter = lines(
    "import { log } from './log';",
    '',
    'export class Greeter {',
    '  constructor(private name: string) {}',
    '',
    '  greet(): string {',
    '    return "Hello " + this.name;',
    '  }',
    '}',
    '',
    'export function helper(): number {',
    '  return 1;',
    '}',
  );

  it('inserts a method into a class', () => {
    const sketch = [
      '// ... existing code ...',
      '  greet(): string {',
      '    return "Hello " + this.name;',
      '  }',
      '',
      '  shout(): string {',
      '    return this.greet().toUpperCase();',
      '  }',
      '}',
      '// ... existing code ...',
    ].join('\n');
    expect(mergeSketch(greeter, sketch).text).toBe(
      lines(
        "import { log } from './log';",
        '',
        'export class Greeter {',
        '  constructor(private name: string) {}',
        '',
        '  greet(): string {',
        '    return "Hello " + this.name;',
        '  }',
        '',
        '  shout(): string {',
        '    return this.greet().toUpperCase();',
        '  }',
        '}',
        '',
        'export function helper(): number {',
        '  return 1;',
        '}',
      ),
    );
  });

  it('changes a function body whose inner block closes with the same brace', () => {
    const original = lines(
      'function load(id: string) {',
      '  if (!id) {',
      "    throw new Error('no id');",
      '  }',
      '  return fetch(id);',
      '}',
      '',
      'function save() {',
      '  return 2;',
      '}',
    );
    const sketch = ['// ... existing code ...', 'function load(id: string) {', '  return cache.get(id) ?? fetch(id);', '}', '// ... existing code ...'].join('\n');
    expect(mergeSketch(original, sketch).text).toBe(
      lines('function load(id: string) {', '  return cache.get(id) ?? fetch(id);', '}', '', 'function save() {', '  return 2;', '}'),
    );
  });

  it('adds an import at the top (no marker before the first segment)', () => {
    const sketch = ["import { log } from './log';", "import { retry } from './retry';", '// ... existing code ...'].join('\n');
    expect(mergeSketch(greeter, sketch).text).toBe(greeter.replace("import { log } from './log';\n", "import { log } from './log';\nimport { retry } from './retry';\n"));
  });

  it('edits two distant places in one sketch', () => {
    const sketch = [
      '// ... existing code ...',
      '  greet(): string {',
      '    log(this.name);',
      '    return "Hello " + this.name;',
      '  }',
      '// ... existing code ...',
      'export function helper(): number {',
      '  return 42;',
      '}',
    ].join('\n');
    const merged = mergeSketch(greeter, sketch);
    expect(merged.text).toBe(
      greeter.replace('  greet(): string {\n', '  greet(): string {\n    log(this.name);\n').replace('  return 1;', '  return 42;'),
    );
    expect(merged.spans.map((span) => span.firstLine)).toEqual([6, 11]);
  });

  it('appends at the end when the sketch ends without a marker on the last line of the file', () => {
    const sketch = ['// ... existing code ...', 'export function helper(): number {', '  return 1;', '}', '', 'export const VERSION = 2;'].join('\n');
    expect(mergeSketch(greeter, sketch).text).toBe(`${greeter}\nexport const VERSION = 2;\n`);
  });

  it('fails when a segment starts with a line that is not in the file', () => {
    const sketch = ['// ... existing code ...', 'function missing() {', '  return 0;', '}', '// ... existing code ...'].join('\n');
    // Its last line "}" closes two places at that indentation: nothing says which one is meant.
    expect(() => mergeSketch(greeter, sketch)).toThrow(/starts with new code.*matches 2 places.*search_replace/);
    const newLastLine = ['// ... existing code ...', 'const missing = 1;', 'const other = 2;', '// ... existing code ...'].join('\n');
    expect(() => mergeSketch(greeter, newLastLine)).toThrow(/"const missing = 1;" .* was not found.*search_replace/);
  });

  it('inserts a method at the end of a class when the marker stands for the class body', () => {
    const sketch = [
      '// ... existing code ...',
      'export class Greeter {',
      '  // ... existing code ...',
      '',
      '  shout(): string {',
      '    return this.greet().toUpperCase();',
      '  }',
      '}',
      '// ... existing code ...',
    ].join('\n');
    expect(mergeSketch(greeter, sketch).text).toBe(
      greeter.replace('    return "Hello " + this.name;\n  }\n}\n', '    return "Hello " + this.name;\n  }\n\n  shout(): string {\n    return this.greet().toUpperCase();\n  }\n}\n'),
    );
  });

  it('a region starting with new code keeps the existing lines it ends with', () => {
    const original = lines('function run() {', '  setup();', '  work();', '}', '', 'function other() {', '  work();', '}');
    const sketch = ['// ... existing code ...', 'function run() {', '  // ... existing code ...', '  log();', '  work();', '}', '// ... existing code ...'].join('\n');
    expect(mergeSketch(original, sketch).text).toBe(original.replace('  setup();\n  work();\n', '  setup();\n  log();\n  work();\n'));
  });

  it('a nested marker then "}" closes the previous region\'s block; new code after it is inserted, not anchored', () => {
    const original = lines(
      'export function formatSize(bytes: number): string {',
      '  if (bytes < 1024) return bytes + " B";',
      '  return (bytes / 1024).toFixed(1) + " KB";',
      '}',
      '',
      'function matcher(patterns: string[]) {',
      '  return patterns.length;',
      '}',
      '',
      'function render() {',
      '  lines.push("(empty)");',
      '}',
    );
    const sketch = [
      '// ... existing code ...',
      'export function formatSize(bytes: number): string {',
      "  if (bytes < 0) throw new Error('negative');",
      '  if (bytes < 1024) return bytes + " B";',
      '  // ... existing code ...',
      '}',
      '',
      'export function formatCount(count: number): string {',
      "  return count === 1 ? '1 entry' : count + ' entries';",
      '}',
      '// ... existing code ...',
      'function render() {',
      '  lines.push("(nothing here)");',
      '}',
    ].join('\n');
    expect(mergeSketch(original, sketch).text).toBe(
      original
        .replace('{\n  if (bytes < 1024)', "{\n  if (bytes < 0) throw new Error('negative');\n  if (bytes < 1024)")
        .replace('KB";\n}\n', "KB\";\n}\n\nexport function formatCount(count: number): string {\n  return count === 1 ? '1 entry' : count + ' entries';\n}\n")
        .replace('(empty)', '(nothing here)'),
    );
  });

  it('a changed line without unchanged neighbours is refused', () => {
    const sketch = ['// ... existing code ...', '    return "Hi " + this.name;', '// ... existing code ...'].join('\n');
    expect(() => mergeSketch(greeter, sketch)).toThrow(/was not found.*search_replace/);
  });

  it('inserts a single new line at the end of a block', () => {
    const sketch = ['// ... existing code ...', 'export class Greeter {', '  // ... existing code ...', '  static instances = 0;', '// ... existing code ...'].join('\n');
    expect(mergeSketch(greeter, sketch).text).toBe(greeter.replace('    return "Hello " + this.name;\n  }\n}\n', '    return "Hello " + this.name;\n  }\n  static instances = 0;\n}\n'));
  });

  it('fails when a segment anchor matches several places', () => {
    const original = lines('function a() {', '  return 1;', '}', '', 'function b() {', '  return 1;', '}');
    const sketch = ['// ... existing code ...', '  return 1;', '  // checked', '// ... existing code ...'].join('\n');
    expect(() => mergeSketch(original, sketch)).toThrow(/matches 2 places \(lines 2, 6\).*ambiguous.*search_replace/);
  });

  it('fails when a sketch without a leading marker starts in the middle of the file', () => {
    const sketch = ['export function helper(): number {', '  return 2;', '}'].join('\n');
    expect(() => mergeSketch(greeter, sketch)).toThrow(/does not start with .* marker.*line 11/);
  });

  it('fails when a sketch without a trailing marker stops in the middle of the file', () => {
    const sketch = ['// ... existing code ...', '  greet(): string {', '    return "Hi " + this.name;', '  }'].join('\n');
    expect(() => mergeSketch(greeter, sketch)).toThrow(/does not end with .* marker/);
  });

  it('a sketch of only markers is refused', () => {
    expect(() => mergeSketch(greeter, '// ... existing code ...\n\n// ... existing code ...')).toThrow(/no code besides/);
  });
});

describe('mergeSketch: Python', () => {
  const service = lines(
    'import os',
    '',
    '',
    'class Service:',
    '    def __init__(self, url):',
    '        self.url = url',
    '',
    '    def fetch(self, path):',
    '        full = self.url + path',
    '        return os.environ.get(full)',
    '',
    '',
    'def main():',
    '    Service("x").fetch("/")',
  );

  it('inserts a method into a class (new last line: the block is kept below)', () => {
    const sketch = [
      '# ... existing code ...',
      '    def __init__(self, url):',
      '        self.url = url',
      '',
      '    def close(self):',
      '        self.url = None',
      '# ... existing code ...',
    ].join('\n');
    expect(mergeSketch(service, sketch).text).toBe(
      service.replace('        self.url = url\n', '        self.url = url\n\n    def close(self):\n        self.url = None\n'),
    );
  });

  it('changes a function body (the new body replaces the indented block)', () => {
    const sketch = ['# ... existing code ...', '    def fetch(self, path):', '        return requests.get(self.url + path)', '# ... existing code ...'].join('\n');
    expect(mergeSketch(service, sketch).text).toBe(
      service.replace('        full = self.url + path\n        return os.environ.get(full)\n', '        return requests.get(self.url + path)\n'),
    );
  });

  it('adds an import', () => {
    const sketch = ['import os', 'import sys', '# ... existing code ...'].join('\n');
    expect(mergeSketch(service, sketch).text).toBe(service.replace('import os\n', 'import os\nimport sys\n'));
  });

  it('edits two distant places', () => {
    const sketch = [
      'import json',
      'import os',
      '# ... existing code ...',
      'def main():',
      '    print(json.dumps(Service("x").fetch("/")))',
    ].join('\n');
    expect(mergeSketch(service, sketch).text).toBe(
      service.replace('import os\n', 'import json\nimport os\n').replace('    Service("x").fetch("/")\n', '    print(json.dumps(Service("x").fetch("/")))\n'),
    );
  });

  it('appends a method at the end of a class whose body the marker stands for', () => {
    const sketch = ['# ... existing code ...', 'class Service:', '    # ... existing code ...', '', '    def close(self):', '        self.url = None', '# ... existing code ...'].join('\n');
    expect(mergeSketch(service, sketch).text).toBe(
      service.replace('        return os.environ.get(full)\n', '        return os.environ.get(full)\n\n    def close(self):\n        self.url = None\n'),
    );
  });

  it('a marker inside the body after the first lines keeps the rest of the body', () => {
    const sketch = ['# ... existing code ...', '    def fetch(self, path):', '        log(path)', '        # ... existing code ...'].join('\n');
    expect(mergeSketch(service, sketch).text).toBe(service.replace('    def fetch(self, path):\n', '    def fetch(self, path):\n        log(path)\n'));
  });

  it('fails on an ambiguous anchor', () => {
    const sketch = ['# ... existing code ...', '', '    def fetch(self, path):', '# ... existing code ...'].join('\n');
    const twice = service.replace('def main():', 'class Other:\n    def fetch(self, path):\n        pass\n\n\ndef main():');
    expect(() => mergeSketch(twice, sketch)).toThrow(/matches 2 places/);
  });
});

describe('mergeSketch: Go', () => {
  const server = lines(
    'package main',
    '',
    'import (',
    '\t"fmt"',
    ')',
    '',
    'func handle(x int) int {',
    '\tif x > 0 {',
    '\t\tfmt.Println(x)',
    '\t}',
    '\treturn x',
    '}',
    '',
    'func main() {',
    '\thandle(1)',
    '}',
  );

  it('adds an import inside the import block', () => {
    const sketch = ['// ... existing code ...', 'import (', '\t"fmt"', '\t"os"', ')', '// ... existing code ...'].join('\n');
    expect(mergeSketch(server, sketch).text).toBe(server.replace('\t"fmt"\n', '\t"fmt"\n\t"os"\n'));
  });

  it('changes a function body with a nested block', () => {
    const sketch = ['// ... existing code ...', 'func handle(x int) int {', '\treturn x * 2', '}', '// ... existing code ...'].join('\n');
    expect(mergeSketch(server, sketch).text).toBe(server.replace('\tif x > 0 {\n\t\tfmt.Println(x)\n\t}\n\treturn x\n', '\treturn x * 2\n'));
  });

  it('inserts a new function between two others', () => {
    const sketch = [
      '// ... existing code ...',
      '\treturn x',
      '}',
      '',
      'func double(x int) int {',
      '\treturn 2 * x',
      '}',
      '// ... existing code ...',
    ].join('\n');
    expect(mergeSketch(server, sketch).text).toBe(server.replace('\treturn x\n}\n', '\treturn x\n}\n\nfunc double(x int) int {\n\treturn 2 * x\n}\n'));
  });

  it('edits two distant places: an import and main', () => {
    const sketch = [
      '// ... existing code ...',
      'import (',
      '\t"fmt"',
      '\t"os"',
      ')',
      '// ... existing code ...',
      'func main() {',
      '\thandle(len(os.Args))',
      '}',
    ].join('\n');
    expect(mergeSketch(server, sketch).text).toBe(server.replace('\t"fmt"\n', '\t"fmt"\n\t"os"\n').replace('\thandle(1)', '\thandle(len(os.Args))'));
  });

  it('fails when a segment between markers has no anchor in the file', () => {
    const sketch = ['// ... existing code ...', 'func brandNew() {}', '// ... existing code ...'].join('\n');
    expect(() => mergeSketch(server, sketch)).toThrow(/was not found.*search_replace/);
  });
});

describe('mergeSketch: other syntaxes', () => {
  it('HTML with <!-- --> markers', () => {
    const page = lines('<html>', '<body>', '  <h1>Title</h1>', '  <p>Old</p>', '</body>', '</html>');
    const sketch = ['<!-- ... existing code ... -->', '  <h1>Title</h1>', '  <p>New</p>', '</body>', '<!-- ... existing code ... -->'].join('\n');
    expect(mergeSketch(page, sketch).text).toBe(page.replace('<p>Old</p>', '<p>New</p>'));
  });

  it('SQL with -- markers', () => {
    const schema = lines('CREATE TABLE a (', '  id INT', ');', '', 'CREATE TABLE b (', '  id INT', ');');
    const sketch = ['-- ... existing code ...', 'CREATE TABLE b (', '  id INT,', '  name TEXT', ');'].join('\n');
    expect(mergeSketch(schema, sketch).text).toBe(schema.replace('CREATE TABLE b (\n  id INT\n', 'CREATE TABLE b (\n  id INT,\n  name TEXT\n'));
  });

  it('a sketch without markers replaces the whole file when it starts and ends where the file does', () => {
    expect(mergeSketch('a\nb\n', 'a\nc\n').text).toBe('a\nc\n');
  });
});
