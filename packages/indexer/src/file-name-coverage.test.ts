import { describe, expect, it } from 'vitest';
import { fileMentions, fileNameCoverage, fileNameCoverages, fileStem } from './file-name-coverage.js';
import { queryWords } from './name-coverage.js';

describe('fileStem', () => {
  it('drops the extensions and the role suffix; index files are named by their folder past src/', () => {
    expect(fileStem('packages/core/test/durability.test.ts')).toBe('durability');
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
  it('is the coverage of a name of two parts or more', () => {
    expect(fileNameCoverage('src/run-tool-calls.ts', queryWords('run tool calls: plain type'))).toBe(1);
    expect(fileNameCoverage('src/run-tool-calls.ts', queryWords('the tool calls of a run step'))).toBe(1);
    expect(fileNameCoverage('src/run-tool-calls.ts', queryWords('tool results'))).toBeCloseTo(1 / 3);
  });

  it('counts a one-word name only with a second word the query names: its role suffix or its folder', () => {
    expect(fileNameCoverage('es/values.js', queryWords('Returns a list of all the values'))).toBe(0);
    expect(fileNameCoverage('packages/core/test/durability.test.ts', queryWords('core: durability tests'))).toBe(1);
    expect(fileNameCoverage('packages/core/test/durability.test.ts', queryWords('durability of the agent row'))).toBe(0);
    // "tests" alone does not name every one-word test file.
    expect(fileNameCoverage('packages/core/test/compaction.test.ts', queryWords('cli terminal tests: resume'))).toBe(0);
    expect(fileNameCoverage('docs/indexer.md', queryWords('docs: indexer watcher rationale'))).toBe(1);
    expect(fileNameCoverage('docs/indexer.md', queryWords('indexer watcher rationale'))).toBe(0);
    // A folder that repeats the file's name is not a second word.
    expect(fileNameCoverage('apps/cli/src/cli.ts', queryWords('ci: the CLI smoke test'))).toBe(0);
    // An index file is named by its package folder and the one above it (`@cairn/tools-fs`).
    expect(fileNameCoverage('packages/tools/fs/src/index.ts', queryWords('tools-fs: export the glob matcher'))).toBe(1);
  });
});

describe('fileNameCoverages', () => {
  it('gives a file the query writes out twice the weight of a spelled-out name', () => {
    const coverages = fileNameCoverages(['docs/stores.md', 'src/run-tool-calls.ts', 'src/other.ts'], queryWords('stores.md: a lease; run-tool-calls: plain type'));
    expect(coverages.get('docs/stores.md')).toBe(2);
    expect(coverages.get('src/run-tool-calls.ts')).toBe(2);
    expect(coverages.get('src/other.ts')).toBe(0);
    // As written: a capitalised word names the file spelled that way only.
    expect(fileNameCoverages(['readme.md'], queryWords('README: links')).get('readme.md')).toBe(0);
  });

  it('shares a name many candidates have, except with the one the query singles out', () => {
    const paths = ['README.md', 'packages/server/README.md', 'packages/sdk/README.md', 'packages/chat-ui/README.md'];
    const bare = fileNameCoverages(paths, queryWords('README: links to the guides'));
    expect(paths.map((path) => bare.get(path))).toEqual([2, 0.5, 0.5, 0.5]);
    const named = fileNameCoverages(paths, queryWords('server: sandbox option; README and docs'));
    expect(paths.map((path) => named.get(path))).toEqual([2, 2, 0.5, 0.5]);
  });
});
