import { createHash } from 'node:crypto';

/** The longest tool name every provider accepts (OpenAI and Gemini: 64). */
export const maxToolNameLength = 64;
const maxServerPartLength = 30;
const hashLength = 8;

/** Characters every provider allows in a tool name; the rest become `_`. */
export function sanitizeNamePart(part: string): string {
  const sanitized = part.replace(/[^a-zA-Z0-9_-]/g, '_');
  return sanitized === '' ? '_' : sanitized;
}

function shortHash(server: string, tool: string): string {
  return createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, hashLength);
}

/**
 * `mcp__<server>__<tool>`, both parts sanitised. Longer than 64: the server part is kept (up to 30
 * characters) so `mcp__server__` still reads, the tool part is cut, and a hash of the original
 * names is appended: the same server and tool always give the same name, two long names that
 * share a prefix do not collide.
 */
export function qualifiedToolName(server: string, tool: string): string {
  const name = `mcp__${sanitizeNamePart(server)}__${sanitizeNamePart(tool)}`;
  return name.length <= maxToolNameLength ? name : hashedToolName(server, tool);
}

/** The hashed form, also used when two tools of a server sanitise to the same name (`a.b`, `a_b`). */
export function hashedToolName(server: string, tool: string): string {
  const prefix = `mcp__${sanitizeNamePart(server).slice(0, maxServerPartLength)}__`;
  const room = maxToolNameLength - prefix.length - hashLength - 1;
  return `${prefix}${sanitizeNamePart(tool).slice(0, room)}_${shortHash(server, tool)}`;
}

/**
 * Model-facing names for one server's tools, in order: a name already taken (by an earlier tool)
 * falls back to the hashed form; a tool listed twice, or one that still collides, is left out
 * (returned as undefined).
 */
export function uniqueToolNames(server: string, tools: readonly string[], taken: Set<string> = new Set()): Array<string | undefined> {
  const seen = new Set<string>();
  return tools.map((tool) => {
    if (seen.has(tool)) return undefined;
    seen.add(tool);
    for (const name of [qualifiedToolName(server, tool), hashedToolName(server, tool)]) {
      if (taken.has(name)) continue;
      taken.add(name);
      return name;
    }
    return undefined;
  });
}
