// biome-ignore-all lint/suspicious/noTemplateCurlyInString: examples of the ${...} placeholders config files use
import {
  describeValue, isPlainObject, type JsonObject, nonEmptyStringProblem, positiveMillisecondsProblem, stringArrayProblem, stringRecordProblem,
  unknownFieldProblem,
} from './config-fields.js';
import { serverNameProblem } from './server-name.js';

const limitFields = ['startupTimeoutMs', 'callTimeoutMs'] as const;
const stdioFields = ['type', 'command', 'args', 'env', 'cwd', ...limitFields] as const;
const remoteFields = ['type', 'url', 'headers', 'auth', ...limitFields] as const;
const authFields = ['CLIENT_ID', 'CLIENT_SECRET', 'scopes'];

export interface ConfigCheckOptions {
  /**
   * The config is checked as written in a file, before `${...}` placeholders are expanded: a `url` that
   * holds one is checked only to be a string here (the expanded config is checked again).
   */
  beforeExpansion?: boolean;
}

/**
 * Why `config` cannot be used as the MCP server `name`, or undefined when it can: the reference SDK's
 * `McpServerConfig` (stdio with `command`, or remote with an http(s) `url`) plus Cairn's time limits.
 * Messages name the server and the field and say what to write.
 */
export function configProblem(name: string, config: unknown, options: ConfigCheckOptions = {}): string | undefined {
  const nameProblem = serverNameProblem(name);
  if (nameProblem) return nameProblem;
  const problem = shapeProblem(config, options);
  return problem === undefined ? undefined : `MCP server "${name}": ${problem}`;
}

function shapeProblem(config: unknown, options: ConfigCheckOptions): string | undefined {
  if (!isPlainObject(config)) {
    return `the config must be an object such as { "command": "npx", "args": ["-y", "<package>"] } or { "url": "https://host/mcp" }, not ${describeValue(config)}`;
  }
  const kind = transportKind(config);
  if (kind === 'stdio') return stdioProblem(config);
  if (kind === 'remote') return remoteProblem(config, options);
  return kind.problem;
}

type TransportKind = 'stdio' | 'remote' | { problem: string };

function transportKind(config: JsonObject): TransportKind {
  const { type } = config;
  if (type === 'stdio') return 'stdio';
  if (type === 'http' || type === 'sse') return 'remote';
  if (type !== undefined) {
    const written = typeof type === 'string' ? `"${type}"` : describeValue(type);
    return { problem: `"type" ${written} is not a transport; write "stdio" (with "command"), "http" or "sse" (with "url"), or leave it out` };
  }
  const hasCommand = config.command !== undefined;
  const hasUrl = config.url !== undefined;
  if (hasCommand && hasUrl) {
    return { problem: 'it has both "command" and "url"; keep "command" for a server Cairn starts, or "url" for a remote one' };
  }
  if (hasCommand) return 'stdio';
  if (hasUrl) return 'remote';
  return { problem: 'it needs "command" (a server Cairn starts, e.g. "command": "npx") or "url" (a remote server, e.g. "url": "https://host/mcp")' };
}

function stdioProblem(config: JsonObject): string | undefined {
  return (
    unknownFieldProblem(config, stdioFields, { fields: remoteFields, kind: 'remote ("url")' }) ??
    nonEmptyStringProblem('command', config.command, '"npx"') ??
    stringArrayProblem('args', config.args, '["-y", "@modelcontextprotocol/server-filesystem", "."]') ??
    stringRecordProblem('env', config.env, '{ "API_KEY": "${env:API_KEY}" }') ??
    (config.cwd === undefined ? undefined : nonEmptyStringProblem('cwd', config.cwd, '"./tools"')) ??
    limitsProblem(config)
  );
}

function remoteProblem(config: JsonObject, options: ConfigCheckOptions): string | undefined {
  return (
    unknownFieldProblem(config, remoteFields, { fields: stdioFields, kind: 'stdio ("command")' }) ??
    urlProblem(config.url, options) ??
    stringRecordProblem('headers', config.headers, '{ "Authorization": "Bearer ${env:TOKEN}" }') ??
    authProblem(config.auth) ??
    limitsProblem(config)
  );
}

function urlProblem(url: unknown, options: ConfigCheckOptions): string | undefined {
  const stringProblem = nonEmptyStringProblem('url', url, '"https://host/mcp"');
  if (stringProblem || (options.beforeExpansion && (url as string).includes('${'))) return stringProblem;
  // The address itself is not repeated: it may carry a token.
  let protocol: string;
  try {
    protocol = new URL(url as string).protocol;
  } catch {
    return '"url" is not a valid address; write a full http:// or https:// URL such as "https://host/mcp"';
  }
  if (protocol === 'http:' || protocol === 'https:') return undefined;
  return `"url" must be an http:// or https:// address, not ${protocol}; a local program is started with "command" instead`;
}

function authProblem(auth: unknown): string | undefined {
  if (auth === undefined) return undefined;
  if (!isPlainObject(auth)) return `"auth" must be an object such as { "CLIENT_ID": "..." }, not ${describeValue(auth)}`;
  const unknown = Object.keys(auth).find((key) => !authFields.includes(key));
  if (unknown !== undefined) return `unknown field "auth.${unknown}"; "auth" takes ${authFields.join(', ')}`;
  return (
    nonEmptyStringProblem('auth.CLIENT_ID', auth.CLIENT_ID, '"my-client-id"') ??
    (auth.CLIENT_SECRET === undefined ? undefined : nonEmptyStringProblem('auth.CLIENT_SECRET', auth.CLIENT_SECRET, '"${env:CLIENT_SECRET}"')) ??
    stringArrayProblem('auth.scopes', auth.scopes, '["read"]')
  );
}

function limitsProblem(config: JsonObject): string | undefined {
  for (const field of limitFields) {
    const problem = positiveMillisecondsProblem(field, config[field]);
    if (problem) return problem;
  }
  return undefined;
}
