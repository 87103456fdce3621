/**
 * What a stdio server inherits from the agent's environment: the names a program needs to find
 * things and talk to the user (the MCP SDK's `getDefaultEnvironment` list, widened with locale,
 * temp folders, XDG folders and certificate bundles), never credentials. An allow-list, not a
 * deny-list: provider keys (`OPENAI_API_KEY`, `ANTHROPIC_*`, ...) and every other secret stay out
 * unless the server's config names them in its `env`.
 */
const posixNames = [
  'HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER',
  'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'TMP', 'TEMP',
  'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR',
  // A corporate CA, so a server (or `npx` fetching one) can still reach HTTPS hosts.
  'SSL_CERT_FILE', 'SSL_CERT_DIR', 'NODE_EXTRA_CA_CERTS',
];

const windowsNames = [
  'APPDATA', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATH', 'PATHEXT', 'PROCESSOR_ARCHITECTURE', 'SYSTEMDRIVE',
  'SYSTEMROOT', 'COMSPEC', 'TEMP', 'TMP', 'USERNAME', 'USERPROFILE', 'PROGRAMFILES', 'NODE_EXTRA_CA_CERTS',
];

/** Passed as a family: locale settings. */
const posixPrefixes = ['LC_'];

function isInherited(name: string, platform: NodeJS.Platform): boolean {
  if (platform === 'win32') return windowsNames.includes(name.toUpperCase());
  return posixNames.includes(name) || posixPrefixes.some((prefix) => name.startsWith(prefix));
}

/**
 * The child's environment: the safe part of `agentEnv` plus the config's `env` (which wins, and
 * is the only way a secret gets in). Values that are shell functions (`() {...}`) are dropped, as
 * the SDK does.
 */
export function childEnvironment(agentEnv: Record<string, string | undefined>, configEnv: Record<string, string> = {}, platform: NodeJS.Platform = process.platform): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(agentEnv)) {
    if (value === undefined || value.startsWith('()')) continue;
    if (isInherited(name, platform)) environment[name] = value;
  }
  return { ...environment, ...configEnv };
}
