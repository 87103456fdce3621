import type { InteractionUpdate, TokenUsage } from '../spec/events/v1/index.js';
import type { JSONValue } from '../spec/json.js';
import type { ModelMessage } from '../spec/language-model/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import type { ApprovalDecision, ApprovalKind } from '../spec/store/v1/index.js';
import type { ModeRights } from '../runtime/mode-rights.js';
import type { ModeSwitchRequest } from '../runtime/mode-switch.js';
import type { CheckedToolCall, ToolCallOutcome } from '../runtime/checked-tool-call.js';
import type { TurnState } from './turn-state.js';

export interface RunFailure {
  message: string;
  code: string;
  cause?: unknown;
}

/** The modes a run can be in, and what each may do (the mode-switch guards read them). */
export interface RunModes {
  /** A registered mode (the built-in agent mode when none is registered under `agent`). */
  resolve(id: string): ModeDefinition | undefined;
  rightsOf(mode: ModeDefinition): ModeRights;
}

/** One question the run waits on in `awaitingApproval`: a tool call, a mode switch, or a plan to execute. */
export interface ApprovalRequest {
  /** The tool call id, or `mode-switch-<step>` for a switch. */
  callId: string;
  kind: ApprovalKind;
  reason: string;
  rule?: string;
  toolName?: string;
  args?: JSONValue;
  modeSwitch?: ModeSwitchRequest;
  decision?: ApprovalDecision;
}

/** A mode switch `switch_mode` asked for in this step, as the guards judged it. */
export interface ModeSwitchInFlight {
  to: string;
  /** True for plan -> agent style transitions: approving executes the stored plan. */
  planApproval: boolean;
  /** Set when the switch needs the user's approval; `decision` arrives through awaitingApproval. */
  approval?: ApprovalRequest;
}

/** Where a run picks up when a new process continues it (it was waiting for approval when its process stopped). */
export interface RunResumePoint {
  /** Steps already made. */
  step: number;
  usage?: TokenUsage;
  /** The turn whose tool calls wait: they are checked again, and stored answers apply at once. */
  turn?: TurnState;
  /** A switch that waits for approval (the step's tool results are already in `messages`). */
  modeSwitch?: ModeSwitchInFlight;
}

export interface RunMachineInput {
  messages: ModelMessage[];
  mode: string;
  maxSteps: number;
  modes: RunModes;
  /** The run's tool state (todos, plan, the rights ceiling): shared with the tools, changed by mode switches. */
  state: Record<string, unknown>;
  /** Whether anyone can answer a mode-switch approval in this run; if not, such a switch is refused at once. */
  canApproveModeSwitch: boolean;
  resume?: RunResumePoint;
  /** A stop hook listens: when the run would finish, `stopping` asks it first (it may keep the run going). */
  stopHook?: boolean;
}

/** Where the stream actor puts the turn as it arrives, so a cancel mid-stream keeps the partial text. */
export interface TurnSink {
  current: TurnState;
}

export type RunMachineStateName = 'preparing' | 'compacting' | 'sampling' | 'acting' | 'awaitingApproval' | 'checkingLimits' | 'stopping';

export interface RunMachineContext {
  /** How the run ended, set on entering a final state. */
  status?: RunMachineOutput['status'];
  /** Model calls made so far in this run (the step id of the current call once sampling). */
  step: number;
  maxSteps: number;
  mode: string;
  /** The conversation, including this run's user message and every completed step. */
  messages: ModelMessage[];
  modes: RunModes;
  state: Record<string, unknown>;
  canApproveModeSwitch: boolean;
  /** Per-request reminder of the mode (never stored in the conversation). */
  stepReminder?: string;
  /** The assistant turn of this step, as the stream actor reduced it. */
  turn: TurnState;
  sink: TurnSink;
  usage: TokenUsage;
  /** Whether any turn reported usage (a server may report none: then the run has none). */
  usageReported: boolean;
  /** Steps in a row whose every tool call failed validation (unknown tool, bad JSON, schema). */
  invalidToolSteps: number;
  /** This step's tool calls after their checks, by call id (approvals turn `ask` into `ready` or `done`). */
  checked: Record<string, CheckedToolCall>;
  /**
   * Results of this step's finished tool calls, by call id. The actOnToolCalls actor writes each one
   * here as it lands (as the stream actor writes `sink`), so a step costs one machine event for its
   * tools (`tools.done`) instead of one per call; the machine reads it when the tools are done, and
   * a cancel reads what finished. A new step starts with a new record.
   */
  outcomes: Record<string, ToolCallOutcome>;
  /** The questions of the current `awaitingApproval`. */
  approvals: ApprovalRequest[];
  modeSwitch?: ModeSwitchInFlight;
  /** Notes for the model (a refused switch) that join the conversation after this step's results. */
  pendingNotes?: ModelMessage[];
  lastText: string;
  stopHook: boolean;
  /** How often a stop hook kept this run going (the loop counter its payload carries). */
  stopHookContinues: number;
  error?: RunFailure;
  /** The state a cancel interrupted, so the conversation is closed correctly. */
  interruptedIn?: RunMachineStateName;
  resume?: RunResumePoint;
  /** The current turn's tool calls are the saved conversation's (a resume at them): checking saves nothing first. */
  callsSaved?: boolean;
  /** The step's conversation is not saved yet: sampling saves it while the request is in flight. */
  stepUnsaved?: boolean;
  /** What preparing decided: the request is over the budget, compact it first. */
  needsCompaction?: boolean;
  /**
   * This turn as an assistant message with its tool calls, built once: the calls' checkpoint and the
   * step's results share the object, so the next save knows it is saved without hashing it again.
   */
  turnMessage?: ModelMessage;
}

export type RunMachineEvent =
  | { type: 'model.done'; turn: TurnState }
  | { type: 'model.failed'; turn: TurnState; error: RunFailure }
  /** Sent by `actOnToolCalls` only when a call needs an approval: the run waits for it. */
  | { type: 'tools.checked'; checked: Record<string, CheckedToolCall>; approvals: ApprovalRequest[] }
  | { type: 'tools.done' }
  | { type: 'mode.switch'; to: string; explanation: string }
  | { type: 'approval.decided'; callId: string; decision: ApprovalDecision }
  /** An actor's work failed (a store write, a tool runner fault): the run fails with it. */
  | { type: 'work.failed'; error: RunFailure }
  | { type: 'cancel' };

/** What the machine tells the runtime to publish (the runtime writes it to the run's log). */
export type RunMachineEmitted = { type: 'updates'; updates: InteractionUpdate[] };

/** How a run ended, as the machine's final states report it. */
export interface RunMachineOutput {
  status: 'finished' | 'error' | 'cancelled';
  messages: ModelMessage[];
  mode: string;
  result: string;
  usage?: TokenUsage;
  error?: { message: string; code: string };
}

/**
 * `prepareStep`: the step's request is assembled and, unless it needs compacting first, saved as
 * the step's checkpoint before the actor resolves (the save honours the actor's signal).
 */
export interface PrepareStepInput {
  step: number;
  mode: string;
  messages: ModelMessage[];
}

/** `compact`: the conversation is compacted, then saved as the step's checkpoint. */
export interface CompactInput {
  mode: string;
  messages: ModelMessage[];
}

export interface PreparedStep {
  messages: ModelMessage[];
  stepReminder?: string;
  needsCompaction: boolean;
}

export interface StreamModelInput {
  step: number;
  mode: string;
  messages: ModelMessage[];
  /** The run's usage before this call (what a turn's usage adds to). */
  usage: TokenUsage;
  stepReminder?: string;
  sink: TurnSink;
  /**
   * Save `messages` as the step's checkpoint once the request is on its way (not after compacting,
   * whose actor saved the compacted conversation). Nothing of the answer is acted upon before the
   * save is done; a cancel stops it with the state.
   */
  saveCheckpoint?: true;
}

export interface CheckToolCallsInput {
  step: number;
  mode: string;
  turn: TurnState;
  /**
   * The conversation with this turn's tool calls, saved before they are checked: a process that
   * stops mid-tool leaves calls a resume can answer. Absent when they are saved already (a resume).
   */
  save?: ModelMessage[];
  /** The run's usage with this turn's, when the turn reported usage: stored with the save where the store commits steps. */
  usage?: TokenUsage;
}

export interface CheckToolCallsOutput {
  checked: Record<string, CheckedToolCall>;
  approvals: ApprovalRequest[];
}

export interface ExecuteToolsInput {
  step: number;
  mode: string;
  turn: TurnState;
  checked: Record<string, CheckedToolCall>;
  /** The step's results record (context.outcomes): calls already in it are not run again; each finished call is written to it. */
  outcomes: Record<string, ToolCallOutcome>;
}

/**
 * The `actOnToolCalls` actor's input: the turn's calls to save and check (`checked` empty), then
 * run unless one needs an approval; or, back from `awaitingApproval`, the decided calls to run.
 */
export type ActOnToolCallsInput = CheckToolCallsInput &
  ExecuteToolsInput & {
    /** `checked` holds calls an approval decided: run them, neither saved nor checked again. */
    decided: boolean;
  };

export interface StopHookInput {
  mode: string;
  messages: ModelMessage[];
  /** How often a stop hook kept this run going so far. */
  continues: number;
  /** The run's final text. */
  result: string;
}

export interface StopHookOutput {
  /** Keep the run going: this becomes the next user message. */
  continueWith?: string;
}

export interface SaveCheckpointInput {
  messages: ModelMessage[];
  mode: string;
}

export interface AwaitApprovalsInput {
  step: number;
  mode: string;
  approvals: ApprovalRequest[];
  /** The conversation as it stands while waiting (a new process resumes from it). */
  messages: ModelMessage[];
}
