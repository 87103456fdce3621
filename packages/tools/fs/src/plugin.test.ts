import { toolInputJsonSchema } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { fsTools, fsToolsPlugin } from './index.js';

describe('fsToolsPlugin', () => {
  it('contributes the seven file tools with the ids and names of the spec', () => {
    expect(fsToolsPlugin.name).toBe('@cairn/tools-fs');
    expect(fsToolsPlugin.tools).toBe(fsTools);
    expect(fsTools.map((tool) => [tool.id, tool.name, tool.readOnly])).toEqual([
      ['read', 'read_file', true],
      ['write', 'write', false],
      ['edit', 'search_replace', false],
      ['edit', 'edit_file', false],
      ['delete', 'delete_file', false],
      ['ls', 'list_dir', true],
      ['glob', 'glob_file_search', true],
    ]);
  });

  it('every tool has a JSON Schema with the spec arguments and reports its paths', () => {
    const properties = Object.fromEntries(
      fsTools.map((tool) => [tool.name, Object.keys((toolInputJsonSchema(tool.inputSchema) as { properties: object }).properties)]),
    );
    expect(properties).toEqual({
      read_file: ['path', 'offset', 'limit'],
      write: ['path', 'contents'],
      search_replace: ['path', 'old_string', 'new_string', 'replace_all'],
      edit_file: ['path', 'instructions', 'code_edit'],
      delete_file: ['path'],
      list_dir: ['path', 'ignore'],
      glob_file_search: ['pattern', 'path'],
    });
    for (const tool of fsTools) expect(tool.paths?.({ path: 'src/x.ts', pattern: '*' }), tool.name).toEqual(['src/x.ts']);
    expect(fsTools.find((tool) => tool.name === 'list_dir')?.paths?.({})).toEqual(['.']);
  });
});
