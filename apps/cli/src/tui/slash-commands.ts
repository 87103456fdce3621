/** The chat's slash commands; anything else starting with `/` is an error and never reaches the model. */
export const slashCommands = [
  { name: 'mode', usage: '/mode agent|plan|ask|debug', help: 'switch the mode of the next messages' },
  { name: 'model', usage: '/model <id>', help: 'switch the model (Tab completes from `cairn models`)' },
  { name: 'new', usage: '/new', help: 'start a new agent in this workspace' },
  { name: 'resume', usage: '/resume', help: "pick one of this workspace's agents and continue it" },
  { name: 'cost', usage: '/cost', help: 'tokens and cost of this agent so far' },
  { name: 'help', usage: '/help', help: 'this list, and the keys' },
  { name: 'exit', usage: '/exit', help: 'leave (also Ctrl+C twice, or Ctrl+D on an empty line)' },
] as const;

export type SlashCommandName = (typeof slashCommands)[number]['name'];

export type SlashCommand =
  | { type: 'mode'; mode: string }
  | { type: 'model'; model: string }
  | { type: 'new' | 'resume' | 'cost' | 'help' | 'exit' }
  | { type: 'error'; message: string };

export const modeNames = ['agent', 'plan', 'ask', 'debug'];

/** A line that starts with `/` as a command, or an error line saying what is accepted. */
export function parseSlashCommand(line: string): SlashCommand | undefined {
  const text = line.trim();
  if (!text.startsWith('/') || text.startsWith('//')) return undefined;
  const [word = '', ...rest] = text.slice(1).split(/\s+/);
  const argument = rest.join(' ').trim();
  const name = word === 'quit' ? 'exit' : word;
  switch (name) {
    case 'mode':
      if (!argument) return { type: 'error', message: `/mode needs a mode: ${modeNames.join(', ')}` };
      return { type: 'mode', mode: argument };
    case 'model':
      if (!argument) return { type: 'error', message: '/model needs a model id, e.g. /model openai/gpt-4.1-mini (Tab completes; `cairn models` lists them)' };
      return { type: 'model', model: argument };
    case 'new':
    case 'resume':
    case 'cost':
    case 'help':
    case 'exit':
      if (argument) return { type: 'error', message: `/${name} takes no argument` };
      return { type: name };
    default:
      return { type: 'error', message: `unknown command /${word}${suggestion(word)}; /help lists the commands` };
  }
}

function suggestion(word: string): string {
  const close = slashCommands.find((command) => command.name.startsWith(word.slice(0, 2)) && word.length > 1);
  return close ? ` (did you mean /${close.name}?)` : '';
}

/**
 * Completions for the input as typed: command names after `/`, modes after `/mode `, the given
 * model ids after `/model `. Each candidate is the whole new input.
 */
export function completeSlashCommand(input: string, models: readonly string[]): string[] {
  if (!input.startsWith('/')) return [];
  const space = input.indexOf(' ');
  if (space < 0) {
    const prefix = input.slice(1);
    return slashCommands.filter((command) => command.name.startsWith(prefix)).map((command) => `/${command.name}${command.name === 'mode' || command.name === 'model' ? ' ' : ''}`);
  }
  const command = input.slice(1, space);
  const prefix = input.slice(space + 1);
  const choices = command === 'mode' ? modeNames : command === 'model' ? models : [];
  return choices.filter((choice) => choice.startsWith(prefix)).map((choice) => `/${command} ${choice}`);
}

/** The longest text every candidate starts with (what Tab inserts when several match). */
export function commonPrefix(candidates: readonly string[]): string {
  if (candidates.length === 0) return '';
  let prefix = candidates[0] ?? '';
  for (const candidate of candidates) while (!candidate.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

export const keyHelp = [
  'Enter sends · Alt+Enter or a trailing \\ adds a line · ↑/↓ history · Tab completes /commands and @paths',
  'Ctrl+O shows or hides the last tool result · Ctrl+C cancels a run, twice on an idle prompt exits',
  'A message that starts with / : type // (//etc/hosts … sends /etc/hosts …)',
];

export function helpText(): string {
  return [...slashCommands.map((command) => `${command.usage.padEnd(28)} ${command.help}`), ...keyHelp].join('\n');
}
