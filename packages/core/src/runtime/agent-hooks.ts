import { homedir } from 'node:os';
import { cairnHome } from '../config/workspace-config.js';
import { systemReminder } from '../context/system-prompt.js';
import type { RunHooks } from '../hooks/run-hooks.js';
import { isSubagentHooks } from '../hooks/subagent-hooks.js';
import type { RunMachineOutput } from '../machine/run-machine-types.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { AgentOptions } from './agent-options.js';


/** What the hooks decided before a run's first step. */
export interface HookRunOpening {
  hooks?: RunHooks;
  /** Context that session-start and prompt hooks add to the user's message, already wrapped. */
  reminders: string[];
  /** A prompt hook blocked the message: the run ends with this reason, and the message is not kept. */
  blocked?: string;
  /** A hooks file could not be read: the run ends with this error (nothing runs without its hooks). */
  error?: Error & { code?: string };
}

/**
 * The hooks of one agent handle (docs/hooks.md): the typed callbacks of `AgentOptions.hooks` and the
 * hooks files of the layers asked for, re-read at every run (so edits take effect at the next send).
 * An agent with neither never loads the hooks machinery (hook-dispatcher.ts, child_process).
 */
export class AgentHookSession {
  private started = false;
  /** The hooks of the last run, for the session end. */
  private last: RunHooks | undefined;
  private readonly layers: { project: boolean; user: boolean };

  constructor(
    private readonly agentId: string,
    private readonly cwd: string,
    private readonly options: Pick<AgentOptions, 'hooks' | 'hookTimeoutMs' | 'local' | 'env'>,
  ) {
    const sources = options.local?.settingSources ?? [];
    const files = options.local?.hookConfigFiles ?? [];
    // A subagent's hooks are its parent's (subagent-hooks.ts): its own files would fire them twice.
    const ownFiles = !isSubagentHooks(options.hooks);
    const layer = (name: 'project' | 'user') => ownFiles && (files.includes(name) || sources.includes(name) || sources.includes('all'));
    this.layers = { project: layer('project'), user: layer('user') };
  }

  /** Build the run's hooks and fire the session-start (first run of the handle) and prompt hooks. */
  async openRun(input: { runId: string; mode: string; warn(text: string): void; signal: AbortSignal; prompt?: string; resumed?: boolean }): Promise<HookRunOpening> {
    if (!this.options.hooks && !this.layers.project && !this.layers.user) return { reminders: [] };
    let hooks: RunHooks | undefined;
    try {
      hooks = await this.load(input.warn);
    } catch (error) {
      return { reminders: [], error: error as Error };
    }
    this.last = hooks;
    // Nothing listens (hooks files with no hooks, or none found, and no callbacks): the run has no
    // hooks, as a dispatcher would answer every event with nothing. The session counts as started,
    // as it does when the dispatcher's session-start hooks answered nothing.
    if (!hooks) {
      this.started = true;
      return { reminders: [] };
    }
    const base = { agentId: this.agentId, runId: input.runId, cwd: this.cwd, mode: input.mode };
    const context = { signal: input.signal };
    const reminders: string[] = [];
    if (!this.started) {
      this.started = true;
      const start = await hooks.sessionStart({ ...base, source: input.resumed ? 'resume' : 'startup' }, context);
      if (start.additionalContext) reminders.push(systemReminder(start.additionalContext));
    }
    if (input.prompt === undefined || !hooks.has('userPromptSubmit')) return { hooks, reminders };
    const answer = await hooks.userPromptSubmit({ ...base, prompt: input.prompt }, context);
    if (answer.decision === 'block') return { hooks, reminders, blocked: answer.reason ?? 'A hook blocked the prompt.' };
    if (answer.additionalContext) reminders.push(systemReminder(answer.additionalContext));
    return { hooks, reminders };
  }

  /** The handle closes: session-end hooks of a session that started (their warnings have no run to go to). */
  async close(): Promise<void> {
    if (!this.started || !this.last?.has('sessionEnd')) return;
    await this.last.sessionEnd?.({ agentId: this.agentId, cwd: this.cwd, reason: 'close' }, { signal: new AbortController().signal });
  }

  /**
   * The run's dispatcher, or undefined when no hook listens: the hooks files are read first, and
   * the dispatcher (with child_process, about 10 ms to load) only loads when they declare a hook
   * or the agent has typed callbacks (the CLI asks for both hooks files at every run).
   */
  private async load(warn: (text: string) => void): Promise<RunHooks | undefined> {
    const { trustedHookFiles } = await import('../hooks/hook-trust.js');
    const env = this.options.env ?? process.env;
    const files = await trustedHookFiles({
      cwd: this.cwd,
      ...this.layers,
      home: env.HOME?.trim() || homedir(),
      cairnHome: cairnHome(env),
      ...(this.options.local?.trustProjectHooks ? { trust: this.options.local.trustProjectHooks } : {}),
      warn,
    });
    const commands = files.flatMap((file) => file.hookCommands);
    if (commands.length === 0 && !this.options.hooks) return undefined;
    const [{ HookDispatcher }, { HookTranscript }] = await Promise.all([import('../hooks/hook-dispatcher.js'), import('../hooks/hook-transcript.js')]);
    return new HookDispatcher({ commands, ...(this.options.hooks ? { typed: this.options.hooks } : {}), ...(this.options.hookTimeoutMs ? { typedTimeoutMs: this.options.hookTimeoutMs } : {}), env, cwd: this.cwd, transcript: HookTranscript.forAgent(this.agentId), warn });
  }
}

/**
 * How a run ends before its first step because of its hooks: a hooks file that cannot be read, or
 * a prompt hook that blocked the message (which is then not kept in the conversation).
 */
export function hookRunOutcome(opened: HookRunOpening, history: ModelMessage[], mode: string): RunMachineOutput | undefined {
  if (opened.error) return { status: 'error', result: '', messages: history, mode, error: { message: opened.error.message, code: opened.error.code ?? 'configuration_error' } };
  if (opened.blocked !== undefined) return { status: 'error', result: '', messages: history, mode, error: { message: `A hook blocked the prompt: ${opened.blocked}`, code: 'prompt_blocked' } };
  return undefined;
}
