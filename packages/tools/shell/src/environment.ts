/**
 * Variables never passed to commands: the agent's provider keys and the usual cloud / forge
 * credentials. Names are matched exactly (case-insensitive) or by `secretNamePattern`.
 */
export const secretEnvironmentNames: readonly string[] = [
  'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'AZURE_OPENAI_API_KEY',
  'OPENROUTER_API_KEY', 'MISTRAL_API_KEY', 'GROQ_API_KEY', 'DEEPSEEK_API_KEY', 'XAI_API_KEY', 'COHERE_API_KEY', 'HF_TOKEN',
  'HUGGING_FACE_HUB_TOKEN', 'GITHUB_TOKEN', 'GH_TOKEN', 'GITLAB_TOKEN', 'NPM_TOKEN', 'NODE_AUTH_TOKEN', 'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_SECURITY_TOKEN', 'AWS_PROFILE', 'AWS_WEB_IDENTITY_TOKEN_FILE',
  'GOOGLE_APPLICATION_CREDENTIALS', 'AZURE_CLIENT_SECRET', 'AZURE_CLIENT_CERTIFICATE_PATH', 'DOCKER_AUTH_CONFIG',
  'SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'CAIRN_API_KEY',
];

/** Any name containing one of these words is treated as a secret. */
export const secretNamePattern = /(API_?KEY|ACCESS_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE_?KEY|AUTH_?KEY|SESSION_?KEY)/i;

export interface EnvironmentPolicy {
  /** Names kept even though they look like secrets (e.g. `GITHUB_TOKEN` for a `gh` workflow). */
  keep?: string[];
  /** More names (or `/regex/` strings) to remove. */
  remove?: string[];
  /** Variables set for every command (after filtering). */
  set?: Record<string, string>;
}

export function isSecretName(name: string, policy: EnvironmentPolicy = {}): boolean {
  const upper = name.toUpperCase();
  if (policy.keep?.some((kept) => kept.toUpperCase() === upper)) return false;
  for (const removed of policy.remove ?? []) {
    if (removed.startsWith('/') && removed.endsWith('/') && removed.length > 2) {
      if (new RegExp(removed.slice(1, -1), 'i').test(name)) return true;
    } else if (removed.toUpperCase() === upper) return true;
  }
  return secretEnvironmentNames.includes(upper) || secretNamePattern.test(name);
}

// Pagers and credential prompts would hang a command that has no terminal.
const commandDefaults: Record<string, string> = { PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', CAIRN_AGENT: '1' };

/** The child environment: the agent's environment without secrets, plus non-interactive defaults. */
export function commandEnvironment(source: Record<string, string | undefined>, policy: EnvironmentPolicy = {}): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || isSecretName(name, policy)) continue;
    environment[name] = value;
  }
  return { ...environment, ...commandDefaults, ...(policy.set ?? {}) };
}
