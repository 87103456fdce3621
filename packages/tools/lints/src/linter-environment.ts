// Linters need a path and a home; nothing else of the agent's environment (API keys) is passed on.
const passedEnvironment = ['PATH', 'HOME', 'USERPROFILE', 'TMPDIR', 'TEMP', 'TMP', 'LANG', 'LC_ALL', 'SystemRoot', 'APPDATA', 'LOCALAPPDATA'];

/** The environment linters get: no color, and only the variables a linter needs from `env` (or this process). */
export function linterEnvironment(env: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = { NO_COLOR: '1', FORCE_COLOR: '0' };
  for (const name of passedEnvironment) {
    const value = env[name] ?? process.env[name];
    if (value !== undefined) result[name] = value;
  }
  return result;
}
