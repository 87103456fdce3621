import { ConfigurationError } from '../spec/errors/index.js';

export type PermissionDecision = 'allow' | 'ask' | 'deny';

/** One layer's rules (SPEC section 8): `toolId(specifier)` or a bare `toolId` / model-facing name. */
export interface PermissionRules {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

export interface ParsedPermissionRule {
  /** The rule as written, e.g. `shell(git status*)`. */
  text: string;
  decision: PermissionDecision;
  /** The layer it came from (`send`, `agent`, `project`, `user`, ...). */
  source: string;
  /** Tool id, group (`shell`, `mcp`) or model-facing name. */
  tool: string;
  /** The part between the parentheses; undefined for a bare tool rule. */
  specifier?: string;
}

const rulePattern = /^([A-Za-z0-9_.:-]+)(?:\((.*)\))?$/s;

/** Parses `toolId(specifier)`; throws a ConfigurationError naming the bad rule. */
export function parsePermissionRule(text: string, decision: PermissionDecision, source: string): ParsedPermissionRule {
  const match = rulePattern.exec(text.trim());
  if (!match?.[1]) {
    throw new ConfigurationError(`Permission rule "${text}" (${decision}, ${source} layer) is invalid: write toolId or toolId(specifier), e.g. shell(git status*) or read(.env*).`);
  }
  const rule: ParsedPermissionRule = { text, decision, source, tool: match[1] };
  const specifier = match[2]?.trim();
  if (specifier === '') throw new ConfigurationError(`Permission rule "${text}" has an empty specifier: write ${match[1]} to match every call.`);
  // `tool(*)` means the same as a bare `tool`.
  if (specifier !== undefined && specifier !== '*') rule.specifier = specifier;
  return rule;
}

export function parsePermissionRules(rules: PermissionRules, source: string): ParsedPermissionRule[] {
  const parsed: ParsedPermissionRule[] = [];
  for (const decision of ['deny', 'ask', 'allow'] as const) {
    const list = rules[decision] ?? [];
    if (!Array.isArray(list)) throw new ConfigurationError(`permissions.${decision} (${source} layer) must be an array of rule strings.`);
    for (const text of list) parsed.push(parsePermissionRule(String(text), decision, source));
  }
  return parsed;
}

/**
 * A command glob: `*` matches any text (spaces included), the rest is literal. A trailing `:*`
 * (Claude Code style, `npm run test:*`) means "this prefix, then nothing or a space and more".
 */
export function commandGlobToRegExp(pattern: string): RegExp {
  if (pattern.endsWith(':*')) return new RegExp(`^${escapeGlob(pattern.slice(0, -2))}(?:\\s.*)?$`, 's');
  return globToRegExp(pattern);
}

const escapeGlob = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');

/** A plain glob where `*` matches any text: used for `mcp(server:*)` and URL rules. */
export function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${escapeGlob(pattern)}$`, 's');
}

/** `domain:example.com` matches the host and its subdomains; anything else is a URL glob. */
export function urlMatches(specifier: string, url: string): boolean {
  if (specifier.startsWith('domain:')) {
    const domain = specifier.slice('domain:'.length).toLowerCase().replace(/^\*\./, '');
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
    } catch {
      return false;
    }
    return host === domain || host.endsWith(`.${domain}`);
  }
  return globToRegExp(specifier).test(url);
}

/**
 * The in-process MCP server `local.customTools` form (as in the reference SDK): rules name them
 * `mcp(custom-user-tools:<name>)`, and they skip interactive approval.
 */
export const customToolsServer = 'custom-user-tools';

/**
 * What `mcp(github:*)` is matched against: `server:tool`. A tool that carries its subject (MCP
 * tools whose sanitised name cannot be read back, custom tools) gives it as `tool.ruleSubject`;
 * otherwise it is derived from an `mcp__server__tool` name, else the name itself.
 */
export function mcpSubject(toolName: string, toolId: string, subject?: string): string {
  if (subject?.includes(':')) return subject;
  const qualified = /^mcp__(.+?)__(.+)$/.exec(toolName) ?? /^mcp__(.+?)__(.+)$/.exec(toolId);
  if (qualified) return `${qualified[1]}:${qualified[2]}`;
  return toolName;
}

/** A tool of `local.customTools`: category `custom` with the subject `custom-user-tools:<name>`. */
export function isCustomUserTool(request: { category: string; subject?: string }): boolean {
  return request.category === 'custom' && request.subject?.startsWith(`${customToolsServer}:`) === true;
}
