import { lazyRequire } from '../util/lazy-require.js';

// yaml is loaded only when a rule file with front matter is read.
const loadYaml = lazyRequire<{ parse(text: string): unknown }>('yaml');
const parseYaml = (text: string): unknown => loadYaml().parse(text);

export interface RuleFrontMatter {
  description?: string;
  globs: string[];
  alwaysApply?: boolean;
}

export interface ParsedRuleFile {
  /** Undefined when the file has no front matter block at all. */
  frontMatter: RuleFrontMatter | undefined;
  body: string;
}

const blockPattern = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

/**
 * Split a rule file into front matter and body. The block is parsed as YAML first; Cursor writes
 * globs unquoted (`globs: *.ts, src/**`), which YAML reads as an alias and rejects, so a failed or
 * odd parse falls back to reading `key: value` lines literally.
 */
export function parseRuleFile(text: string): ParsedRuleFile {
  const match = blockPattern.exec(text);
  if (!match) return { frontMatter: undefined, body: text.replace(/^\uFEFF/, '').trim() };
  const raw = match[1] ?? '';
  const body = text.slice(match[0].length).trim();
  return { frontMatter: normalize(parseYamlSafely(raw) ?? parseLines(raw)), body };
}

function parseYamlSafely(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = parseYaml(raw);
    if (value === null || value === undefined) return {};
    return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function parseLines(raw: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const line of raw.split(/\r?\n/)) {
    const match = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (match?.[1]) result[match[1]] = match[2]?.trim() ?? '';
  }
  return result;
}

function normalize(data: Record<string, unknown>): RuleFrontMatter {
  const description = typeof data.description === 'string' && data.description.trim() ? data.description.trim() : undefined;
  const always = data.alwaysApply;
  const alwaysApply = always === true || (typeof always === 'string' && always.trim().toLowerCase() === 'true') ? true : always === undefined || always === null || always === '' ? undefined : false;
  return { ...(description ? { description } : {}), globs: normalizeGlobs(data.globs), ...(alwaysApply === undefined ? {} : { alwaysApply }) };
}

function normalizeGlobs(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return items
    .filter((item): item is string => typeof item === 'string')
    .map((item) => item.trim().replace(/^["']|["']$/g, ''))
    .filter((item) => item.length > 0);
}
