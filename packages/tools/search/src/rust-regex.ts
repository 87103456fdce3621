import { ToolError } from '@cairn/core';

const posixClasses: Record<string, string> = {
  alnum: 'a-zA-Z0-9', alpha: 'a-zA-Z', ascii: '\\x00-\\x7F', blank: ' \\t', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: '\\s', upper: 'A-Z', word: '\\w', xdigit: '0-9A-Fa-f',
};

export interface TranslatedRegex {
  source: string;
  flags: string;
}

/**
 * ripgrep's Rust regex syntax, as far as JavaScript can express it: leading inline flags (`(?i)`,
 * `(?s)`, `(?m)`), `(?P<name>...)`, `\A` / `\z`, POSIX classes. Look-around and backreferences
 * work here but not in ripgrep (which would reject them), so the fallback is slightly more lenient.
 */
export function translateRustRegex(pattern: string, options: { ignoreCase: boolean; multiline: boolean }): TranslatedRegex {
  let source = pattern;
  const flags = new Set<string>();
  if (options.ignoreCase) flags.add('i');
  if (options.multiline) {
    flags.add('s');
    flags.add('m');
  }
  for (;;) {
    const inline = /^\(\?([imsU]+)\)/.exec(source);
    if (!inline?.[1]) break;
    for (const flag of inline[1]) if (flag !== 'U') flags.add(flag);
    source = source.slice(inline[0].length);
  }
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$')
    .replace(/\[:(\^?)([a-z]+):\]/g, (whole, negated: string, name: string) => (negated || !posixClasses[name] ? whole : (posixClasses[name] ?? whole)));
  const flagString = [...flags].join('');
  for (const unicode of ['u', '']) {
    try {
      new RegExp(source, flagString + unicode);
      return { source, flags: flagString + unicode };
    } catch (error) {
      if (unicode === '') throw new ToolError(`Invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}. Escape special characters such as ( [ { . * + ? with a backslash to search for them literally.`);
    }
  }
  throw new ToolError(`Invalid regular expression ${JSON.stringify(pattern)}.`);
}
