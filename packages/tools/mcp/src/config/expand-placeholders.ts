import { basename, sep } from 'node:path';

/** What `${...}` placeholders in a server config expand to. */
export interface PlaceholderValues {
  /** The agent's environment: `${env:NAME}` and `${NAME}` (Claude Code's form, with `${NAME:-default}`). */
  env: Record<string, string | undefined>;
  /** `${workspaceFolder}` (Cursor and VS Code): the agent's workspace. */
  workspaceFolder: string;
  /** `${userHome}`: the user's home folder. */
  userHome: string;
}

export type ExpansionResult<T> = { ok: true; value: T } | { ok: false; missing: string[]; unsupported: string[] };

// `${env:NAME}`, `${NAME}`, either with `:-default`; anything else inside `${}` is checked by name.
const placeholderPattern = /\$\{([^}]*)\}/g;
const variablePattern = /^(env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/**
 * Expands the placeholders in every string value of `value` (object keys are left alone). A variable
 * that is unset or empty, without a default, is reported as missing rather than expanded to nothing,
 * so an empty secret is never sent.
 */
export function expandPlaceholders<T>(value: T, values: PlaceholderValues): ExpansionResult<T> {
  const missing = new Set<string>();
  const unsupported = new Set<string>();
  const expandString = (text: string) => text.replace(placeholderPattern, (written, inner: string) => {
    const replacement = placeholderValue(inner, values);
    if (replacement.kind === 'missing') missing.add(replacement.name);
    if (replacement.kind === 'unsupported') unsupported.add(written);
    return replacement.kind === 'value' ? replacement.text : written;
  });
  const expanded = mapStrings(value, expandString) as T;
  if (missing.size === 0 && unsupported.size === 0) return { ok: true, value: expanded };
  return { ok: false, missing: [...missing], unsupported: [...unsupported] };
}

type Replacement = { kind: 'value'; text: string } | { kind: 'missing'; name: string } | { kind: 'unsupported' };

function placeholderValue(inner: string, values: PlaceholderValues): Replacement {
  const builtIn = builtInValue(inner, values);
  if (builtIn !== undefined) return { kind: 'value', text: builtIn };
  const match = variablePattern.exec(inner);
  if (!match) return { kind: 'unsupported' };
  const [, , name, fallback] = match as unknown as [string, string | undefined, string, string | undefined];
  const text = values.env[name];
  if (text !== undefined && text !== '') return { kind: 'value', text };
  return fallback === undefined ? { kind: 'missing', name } : { kind: 'value', text: fallback };
}

function builtInValue(inner: string, values: PlaceholderValues): string | undefined {
  switch (inner) {
    case 'workspaceFolder':
      return values.workspaceFolder;
    case 'workspaceFolderBasename':
      return basename(values.workspaceFolder);
    case 'userHome':
      return values.userHome;
    case 'pathSeparator':
    case '/':
      return sep;
    default:
      return undefined;
  }
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]));
  }
  return value;
}
