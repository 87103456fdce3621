import { describe, expect, it } from 'vitest';
import { fileMentions, fileNameCoverage, fileStem } from './file-name-coverage.js';
import { queryWords } from './name-coverage.js';

describe('fileStem', () => {
  it('drops the last extension only, so a role suffix stays a name part', () => {
    expect(fileStem('packages/core/test/durability.test.ts')).toBe('durability.test');
    expect(fileStem('src/run-tool-calls.ts')).toBe('run-tool-calls');
    expect(fileStem('types/instance.d.ts')).toBe('instance');
    expect(fileStem('packages/tools/fs/index.ts')).toBe('fs');
    expect(fileStem('packages/tools/fs/src/index.ts')).toBe('fs');
    expect(fileStem('index.ts')).toBe('index');
  });
});

describe('fileMentions', () => {
  it('keeps words written as file names, as written', () => {
    expect([...fileMentions('docs: README sections; stores.md: a lease, see run-plan.ts.')]).toEqual(['README', 'stores.md', 'run-plan.ts']);
    expect([...fileMentions('run-tool-calls: plain ToolDefinition type')]).toEqual(['run-tool-calls']);
    expect([...fileMentions('get the values of an object, e.g. foo')]).toEqual([]);
  });
});

describe('fileNameCoverage', () => {
  it('is the coverage of a name of two parts or more, role suffix included', () => {
    expect(fileNameCoverage('packages/core/test/durability.test.ts', queryWords('core: durability tests'))).toBe(1);
    expect(fileNameCoverage('packages/core/test/durability.test.ts', queryWords('durability of the agent row'))).toBe(0.5);
    expect(fileNameCoverage('src/run-tool-calls.ts', queryWords('run tool calls: plain type'))).toBe(1);
  });

  it('ignores a one-word name unless the query names its folder too or writes it as a file', () => {
    expect(fileNameCoverage('es/values.js', queryWords('Returns a list of all the values'))).toBe(0);
    expect(fileNameCoverage('docs/indexer.md', queryWords('docs: indexer watcher rationale'))).toBe(1);
    expect(fileNameCoverage('docs/indexer.md', queryWords('indexer watcher rationale'))).toBe(0);
    // A folder that repeats the file's name is not a second word.
    expect(fileNameCoverage('apps/cli/src/cli.ts', queryWords('ci: the CLI smoke test'))).toBe(0);
    expect(fileNameCoverage('docs/stores.md', queryWords('stores.md: a lease is held by run'))).toBe(2);
    expect(fileNameCoverage('README.md', queryWords('README: links to the CLI guides'))).toBe(2);
    expect(fileNameCoverage('src/run-tool-calls.ts', queryWords('run-tool-calls: plain ToolDefinition type'))).toBe(2);
    // An index file is named by its package folder and the one above it (`@cairn/tools-fs`).
    expect(fileNameCoverage('packages/tools/fs/src/index.ts', queryWords('tools-fs: export the glob matcher'))).toBe(1);
    // A capitalised word is a file name only when it is the file's name as written.
    expect(fileNameCoverage('readme.md', queryWords('README: links'))).toBe(0);
  });
});
