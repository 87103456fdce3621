/**
 * Variables passed to every command: what a shell, git, compilers and package managers need to
 * find things and talk to the user — names known to hold paths, locale or terminal settings, never
 * credentials. Everything else in the agent's environment is dropped unless configured
 * (`toolSettings.shell.env.pass`): a deny-list can never know every name a secret hides under
 * (`DATABASE_URL`, `SENTRY_DSN`, `NPM_CONFIG__AUTH`, `GITHUB_PAT`, `OPENAI_KEY`).
 */
export const passedEnvironmentNames: readonly string[] = [
  // The shell and the user.
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TMPDIR', 'TZ',
  // Locale and terminal (LC_* is passed by prefix).
  'LANG', 'LANGUAGE', 'TERM', 'COLORTERM', 'NO_COLOR', 'FORCE_COLOR', 'CI',
  // Where tools keep their configuration and caches.
  'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME',
  // Toolchain locations.
  'JAVA_HOME', 'GOPATH', 'GOROOT', 'CARGO_HOME', 'RUSTUP_HOME', 'NVM_DIR', 'PNPM_HOME', 'VIRTUAL_ENV', 'CONDA_PREFIX', 'PYENV_ROOT',
  // Certificate bundles (a corporate CA), so HTTPS keeps working.
  'SSL_CERT_FILE', 'SSL_CERT_DIR', 'NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE',
];

/** Prefixes passed as a family. */
export const passedEnvironmentPrefixes: readonly string[] = ['LC_'];

/**
 * Names that look like secrets. They are never passed by a prefix pattern (`pass: ['MYAPP_*']`),
 * only when named exactly, and `isSecretName` lets hosts apply the same judgement elsewhere.
 */
export const secretEnvironmentNames: readonly string[] = [
  'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'AZURE_OPENAI_API_KEY',
  'OPENROUTER_API_KEY', 'MISTRAL_API_KEY', 'GROQ_API_KEY', 'DEEPSEEK_API_KEY', 'XAI_API_KEY', 'COHERE_API_KEY', 'HF_TOKEN',
  'HUGGING_FACE_HUB_TOKEN', 'GITHUB_TOKEN', 'GH_TOKEN', 'GITLAB_TOKEN', 'NPM_TOKEN', 'NODE_AUTH_TOKEN', 'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_SECURITY_TOKEN', 'AWS_PROFILE', 'AWS_WEB_IDENTITY_TOKEN_FILE',
  'GOOGLE_APPLICATION_CREDENTIALS', 'AZURE_CLIENT_SECRET', 'AZURE_CLIENT_CERTIFICATE_PATH', 'DOCKER_AUTH_CONFIG',
  'SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'CAIRN_API_KEY', 'DATABASE_URL', 'SENTRY_DSN',
];

/** Any name containing one of these words is treated as a secret. */
export const secretNamePattern = /(API_?KEY|ACCESS_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE_?KEY|AUTH_?KEY|SESSION_?KEY|_AUTH|_PAT$|_DSN$)/i;

export interface EnvironmentPolicy {
  /**
   * More variables passed to commands: exact names (passed even when they look like secrets:
   * naming one is the decision), or a prefix ending in `*` (`MYAPP_*`, never secret-looking names).
   */
  pass?: string[];
  /** Older name of `pass` (exact names). */
  keep?: string[];
  /** Names (or `/regex/` strings) dropped even when the default list or `pass` has them. */
  remove?: string[];
  /** Variables set for every command (after filtering). */
  set?: Record<string, string>;
}

/** Whether `name` looks like a secret; a name `policy` passes exactly or removes decides for itself. */
export function isSecretName(name: string, policy: EnvironmentPolicy = {}): boolean {
  if (isRemoved(name, policy)) return true;
  if ([...(policy.pass ?? []), ...(policy.keep ?? [])].some((entry) => entry.toUpperCase() === name.toUpperCase())) return false;
  return secretEnvironmentNames.includes(name.toUpperCase()) || secretNamePattern.test(name);
}

function isRemoved(name: string, policy: EnvironmentPolicy): boolean {
  return (policy.remove ?? []).some((removed) => {
    if (removed.startsWith('/') && removed.endsWith('/') && removed.length > 2) return new RegExp(removed.slice(1, -1), 'i').test(name);
    return removed.toUpperCase() === name.toUpperCase();
  });
}

/** Whether the variable `name` reaches commands under `policy`. */
export function isPassedName(name: string, policy: EnvironmentPolicy = {}): boolean {
  if (isRemoved(name, policy)) return false;
  const upper = name.toUpperCase();
  const configured = [...(policy.pass ?? []), ...(policy.keep ?? [])];
  if (configured.some((entry) => !entry.endsWith('*') && entry.toUpperCase() === upper)) return true;
  if (passedEnvironmentNames.includes(name) || passedEnvironmentPrefixes.some((prefix) => name.startsWith(prefix))) return true;
  const prefixes = configured.filter((entry) => entry.endsWith('*')).map((entry) => entry.slice(0, -1).toUpperCase());
  return prefixes.some((prefix) => upper.startsWith(prefix)) && !secretEnvironmentNames.includes(upper) && !secretNamePattern.test(name);
}

// Pagers and credential prompts would hang a command that has no terminal.
const commandDefaults: Record<string, string> = { PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', CAIRN_AGENT: '1' };

/** The child environment: the allow-listed part of the agent's environment, plus non-interactive defaults. */
export function commandEnvironment(source: Record<string, string | undefined>, policy: EnvironmentPolicy = {}): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && isPassedName(name, policy)) environment[name] = value;
  }
  return { ...environment, ...commandDefaults, ...(policy.set ?? {}) };
}
