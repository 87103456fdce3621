import type { Command, Option } from 'commander';

/** What a shell needs to know about one command of the tree: its path, subcommands and options. */
interface CommandShape {
  path: string[];
  description: string;
  subcommands: string[];
  options: Array<{ flags: string[]; description: string; takesValue: boolean; choices: string[]; isFolder: boolean }>;
}

export const completionShells = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof completionShells)[number];

/** `cairn completion <shell>`: a completion script built from the commander tree, so it never goes stale. */
export function completionScript(program: Command, shell: CompletionShell): string {
  const shapes = commandShapes(program, []);
  if (shell === 'fish') return fishScript(shapes);
  const bash = bashScript(shapes);
  // zsh runs bash completion functions through its bashcompinit layer.
  return shell === 'zsh' ? `#compdef cairn\nautoload -U +X bashcompinit && bashcompinit\n${bash}` : bash;
}

function commandShapes(command: Command, path: string[]): CommandShape[] {
  const visible = command.commands.filter((sub) => !(sub as unknown as { _hidden?: boolean })._hidden);
  const options = command.options.filter((option) => !option.hidden).map(optionShape);
  options.push({ flags: ['-h', '--help'], description: 'display help', takesValue: false, choices: [], isFolder: false });
  const own: CommandShape = { path, description: command.description(), subcommands: visible.map((sub) => sub.name()), options };
  return [own, ...visible.flatMap((sub) => commandShapes(sub, [...path, sub.name()]))];
}

function optionShape(option: Option) {
  const flags = [option.short, option.long].filter((flag): flag is string => Boolean(flag));
  const takesValue = option.required || option.optional;
  return { flags, description: option.description, takesValue, choices: option.argChoices ?? [], isFolder: /<dir>/.test(option.flags) };
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function bashScript(shapes: CommandShape[]): string {
  const words = shapes.map((shape) => `    ${quote(shape.path.join(' '))}) words=${quote([...shape.subcommands, ...shape.options.flatMap((o) => o.flags)].join(' '))} ;;`);
  const values = shapes.flatMap((shape) => shape.options.filter((o) => o.takesValue).map((o) => valueCase(shape, o)));
  return `# cairn completion for bash (and zsh through bashcompinit): eval "$(cairn completion bash)"
_cairn() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} path='' words i w
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    case "$w" in -*) continue ;; esac
    if _cairn_is_sub "$path" "$w"; then path=\${path:+$path }$w; fi
  done
  case "$path|$prev" in
${values.join('\n')}
  esac
  case "$path" in
${words.join('\n')}
    *) words='' ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
_cairn_is_sub() {
  case "$1" in
${shapes.map((shape) => `    ${quote(shape.path.join(' '))}) [[ " ${shape.subcommands.join(' ')} " == *" $2 "* ]] ;;`).join('\n')}
    *) return 1 ;;
  esac
}
complete -F _cairn cairn
`;
}

/** The `path|flag` case of an option that takes a value: its choices, folders, or nothing to offer. */
function valueCase(shape: CommandShape, option: CommandShape['options'][number]): string {
  const patterns = option.flags.map((flag) => quote(`${shape.path.join(' ')}|${flag}`)).join('|');
  if (option.choices.length > 0) return `    ${patterns}) COMPREPLY=($(compgen -W ${quote(option.choices.join(' '))} -- "$cur")); return ;;`;
  if (option.isFolder) return `    ${patterns}) COMPREPLY=($(compgen -d -- "$cur")); return ;;`;
  return `    ${patterns}) COMPREPLY=(); return ;;`;
}

function fishScript(shapes: CommandShape[]): string {
  const lines = ['# cairn completion for fish: cairn completion fish > ~/.config/fish/completions/cairn.fish', 'complete -c cairn -f'];
  for (const shape of shapes) {
    const condition = fishCondition(shape, shapes);
    for (const sub of shapes.filter((other) => other.path.length === shape.path.length + 1 && other.path.slice(0, -1).join(' ') === shape.path.join(' '))) {
      lines.push(`complete -c cairn -n ${quote(condition)} -a ${quote(sub.path.at(-1)!)} -d ${quote(sub.description)}`);
    }
    for (const option of shape.options) {
      const flags = option.flags.map((flag) => (flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`)).join(' ');
      const value = option.choices.length > 0 ? ` -x -a ${quote(option.choices.join(' '))}` : option.isFolder ? ' -x -a "(__fish_complete_directories)"' : option.takesValue ? ' -x' : '';
      lines.push(`complete -c cairn -n ${quote(condition)} ${flags}${value} -d ${quote(option.description)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** fish: the words typed so far name exactly this command path (and no deeper subcommand). */
function fishCondition(shape: CommandShape, shapes: CommandShape[]): string {
  if (shape.path.length === 0) return '__fish_use_subcommand';
  const seen = shape.path.map((word) => `__fish_seen_subcommand_from ${word}`);
  const deeper = shapes.filter((other) => other.path.length === shape.path.length + 1 && other.path.slice(0, -1).join(' ') === shape.path.join(' ')).map((sub) => sub.path.at(-1)!);
  return [...seen, ...(deeper.length ? [`not __fish_seen_subcommand_from ${deeper.join(' ')}`] : [])].join('; and ');
}
