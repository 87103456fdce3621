import { isJsonSchemaInput, toolInputJsonSchema } from '@cairn/core';
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

  it('declares every input as plain JSON Schema, in the key order providers have always received', () => {
    // zod schemas would make importing the pack load zod; key order is part of the cached prompt prefix.
    for (const tool of fsTools) expect(isJsonSchemaInput(tool.inputSchema), tool.name).toBe(true);
    const readFile = fsTools.find((tool) => tool.name === 'read_file')!;
    expect(JSON.stringify(toolInputJsonSchema(readFile.inputSchema))).toBe(
      '{"type":"object","properties":{"path":{"type":"string","description":"Path of the file, relative to the workspace root (or absolute inside it)."},' +
        '"offset":{"description":"1-based line number to start reading from. Default 1.","type":"integer","minimum":1,"maximum":9007199254740991},' +
        '"limit":{"description":"Number of lines to read. Default 2000.","type":"integer","minimum":1,"maximum":9007199254740991}},"required":["path"]}',
    );
  });
});
