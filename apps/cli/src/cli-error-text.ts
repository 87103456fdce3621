/**
 * The SDK's messages name what an SDK caller changes (`providers.openai.apiKey`, `local.cwd`,
 * `Agent.list()`); a CLI user changes a flag, an environment variable or a file instead. Each rule
 * rewrites one such phrase into the CLI's terms. Rules are ordered: the first ones remove whole
 * SDK-only alternatives ("or pass providers.x.apiKey"), the later ones rename what is left.
 */
const rules: Array<[RegExp, string]> = [
  // "Agent.create: …": which SDK call failed means nothing to a CLI user.
  [/^(?:Agent|Cairn)(?:\.\w+)+(?:\(\))?: /, ''],
  // Keys and base URLs: the environment variable is the CLI's way; the SDK option is dropped.
  [/(missing: set [^.]*?) or pass providers\.[\w-]+\.apiKey/g, '$1, or pick a model of a provider whose key is set with --model'],
  [/ or pass providers\.[\w-]+\.apiKey/g, ''],
  [/ (?:or|\/) providers\.[\w-]+\.baseURL/g, ''],
  [/\s*\(for example providers\.\w+\.apiKey\)/g, ''],
  [/Pass providers: \{ <provider>: \{ apiKey \} \}, or set/g, 'Set'],
  [/Give each provider its key as providers\.<id>\.apiKey or its key variable/g, 'Give each provider its key variable'],
  // Settings files: the CLI has no switch for setting layers, so fixing the file is the way.
  [/,? or leave its layer out of local\.settingSources/g, ''],
  // Workspace, agents, runs and models.
  [/pass another local\.cwd/g, 'pass another --cwd'],
  [/local\.cwd/g, '--cwd'],
  [/List agents with Agent\.list\(\)(?: \(or [^)]*\))?/g, 'List agents with `cairn agents`'],
  [/Agent\.listRuns\(\)/g, '`cairn runs <agentId>`'],
  [/Resume it with Agent\.resume\(agentId\) to send again/g, 'Continue it with `cairn --resume <agentId>`'],
  [/Continue it with Agent\.resume\("([^"]+)"\)/g, 'Continue it with `cairn --resume $1`'],
  [/Cairn\.models\.list\(\) lists them/g, '`cairn models` lists them'],
  [/(?:list the models with |see )Cairn\.models\.list\(\)/g, 'list the models with `cairn models`'],
  [/Cairn\.models\.list\(\)/g, '`cairn models`'],
  [/No model selected\. Pass model \(/g, 'No model selected. Pass --model ('],
  [/Register its plugin with registry\.use\(\.\.\.\) or fix the model id\./g, 'Fix the model id given to --model or in CAIRN_MODEL (`cairn models` lists them).'],
];

/** The message with every SDK-only instruction replaced by the flag, variable or command a CLI user changes. */
export function inCliTerms(message: string): string {
  return rules.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), message);
}

/** A busy agent, told the CLI's way: wait, `cairn cancel`, or `--force`. */
export function busyAgentText(agentId: string, runId: string | undefined): string {
  return (
    `Agent ${agentId} is busy with run ${runId ?? '(unknown)'} in another process. ` +
    `Wait for it to finish, cancel it with \`cairn cancel ${agentId}\`, or pass --force to cancel it and continue here.`
  );
}
