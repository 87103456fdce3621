import { describe, expect, it } from 'vitest';
import { codeTokens, ftsQuery, identifierParts, pathTokens } from './tokenize.js';

describe('identifier-aware tokens', () => {
  it('splits camelCase, PascalCase, snake_case, acronyms and digits and keeps the whole word', () => {
    expect(identifierParts('getHTTPResponse2')).toEqual(['get', 'http', 'response', '2']);
    expect(codeTokens('parseHttpHeader(max_line_len) XMLParser')).toEqual([
      'parsehttpheader', 'parse', 'http', 'header', 'max_line_len', 'max', 'line', 'len', 'xmlparser', 'xml', 'parser',
    ]);
    expect(codeTokens('plain words stay')).toEqual(['plain', 'words', 'stay']);
  });

  it('turns kebab-case and dotted path segments into tokens', () => {
    expect(pathTokens('src/user-service.test.ts').split(' ')).toEqual(expect.arrayContaining(['src', 'user_service_test', 'user', 'service', 'test', 'ts']));
  });

  it('builds a safe OR query without stop words', () => {
    expect(ftsQuery('how do we parse the HTTP header?')).toBe('"parse" OR "http" OR "header"');
    expect(ftsQuery('"; drop table chunks; --')).toBe('"drop" OR "table" OR "chunks"');
    expect(ftsQuery('the')).toBe('"the"');
    expect(ftsQuery('?!')).toBeUndefined();
  });
});
