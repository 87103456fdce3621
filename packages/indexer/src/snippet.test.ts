import { describe, expect, it } from 'vitest';
import { queryWords } from './name-coverage.js';
import { matchedSnippet } from './snippet.js';

const chunk = [
  'export class SessionStore {',
  '  private readonly rows = new Map<string, Session>();',
  '',
  '  get(id: string) {',
  '    return this.rows.get(id);',
  '  }',
  '',
  '  /** Refresh a token before it expires. */',
  '  refreshToken(session: Session) {',
  '    session.token = renewToken(session.token);',
  '    return session;',
  '  }',
  '}',
].join('\n');

describe('matchedSnippet', () => {
  it('shows the lines that hold the query words, with the line they start at', () => {
    const snippet = matchedSnippet(chunk, 40, queryWords('refresh the session token'), 4);
    expect(snippet.line).toBe(47);
    expect(snippet.text).toBe(['  /** Refresh a token before it expires. */', '  refreshToken(session: Session) {', '    session.token = renewToken(session.token);', '    return session;'].join('\n'));
  });

  it('falls back to the chunk\'s first lines when nothing matches, and trims blank edges', () => {
    expect(matchedSnippet(chunk, 1, queryWords('unrelated'), 3)).toEqual({ text: 'export class SessionStore {\n  private readonly rows = new Map<string, Session>();', line: 1 });
  });

  it('caps long lines and the whole snippet', () => {
    const long = matchedSnippet(`const token = '${'x'.repeat(500)}';`, 1, queryWords('token'));
    expect(long.text.length).toBeLessThanOrEqual(241);
    expect(long.text.endsWith('…')).toBe(true);
  });
});
