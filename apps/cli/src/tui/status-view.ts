import { Box, Text } from 'ink';
import { createElement as h, type ReactElement } from 'react';
import { fg } from './colors.js';
import type { FooterState, RunningState } from './chat-state.js';

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** `⠋ running: npm test · 12 s`, `⠋ working · 3 s`, or `waiting for your answer · 5 s`. */
export function statusText(running: RunningState, now: number): string {
  const seconds = Math.max(0, Math.floor((now - running.startedAt) / 1000));
  const frame = frames[Math.floor(now / 250) % frames.length];
  if (running.waiting) return `… waiting for your answer · ${seconds} s`;
  return `${frame} ${running.tool ? `running: ${running.tool}` : 'working'} · ${seconds} s · Ctrl+C cancels`;
}

export function StatusLine({ running, now }: { running: RunningState; now: number }): ReactElement {
  return h(Text, fg('yellow'), statusText(running, now));
}

/** `agent-1f… · openai/gpt-4.1-mini · agent mode · 1,234 in · 56 out · $0.0012`. */
export function footerText(footer: FooterState): string {
  const cost = footer.costCents === undefined ? '' : ` · $${(footer.costCents / 100).toFixed(4)}`;
  return `${shortAgentId(footer.agentId)} · ${footer.model} · ${footer.mode} mode · ${footer.inputTokens.toLocaleString('en-US')} in · ${footer.outputTokens.toLocaleString('en-US')} out${cost} · /help`;
}

/** `agent-83f414bd`: the id's first block is enough to tell agents apart on screen; the exit line prints it whole. */
export const shortAgentId = (agentId: string) => agentId.replace(/^(agent-[0-9a-f]{8})-[0-9a-f-]{27}$/, '$1');

export function Footer({ footer, exitArmed }: { footer: FooterState; exitArmed: boolean }): ReactElement {
  return h(Box, null, exitArmed ? h(Text, fg('yellow'), 'Press Ctrl+C again to exit') : h(Text, { dimColor: true, wrap: 'truncate-end' }, footerText(footer)));
}

/** The prompt: `> ` then the text with the cursor shown inverted; further lines indented. */
export function InputView({ text, cursor, hint, suggestions }: { text: string; cursor: number; hint?: { ok: boolean; text: string } | undefined; suggestions: string[] }): ReactElement {
  const before = text.slice(0, cursor);
  const at = text.slice(cursor, cursor + 1);
  const after = text.slice(cursor + 1);
  const cursorChar = at === '\n' || at === '' ? ' ' : at;
  return h(
    Box,
    { flexDirection: 'column' },
    h(
      Box,
      null,
      h(Text, { ...fg('cyan'), bold: true }, '> '),
      h(Text, null, indent(before), h(Text, { inverse: true }, cursorChar), at === '\n' ? '\n  ' : '', indent(after)),
    ),
    hint ? h(Text, fg(hint.ok ? 'green' : 'red'), `  ${hint.ok ? '✓' : '✗'} ${hint.text}`) : null,
    suggestions.length ? h(Text, { dimColor: true }, `  ${suggestions.slice(0, 8).join('   ')}${suggestions.length > 8 ? `   (+${suggestions.length - 8})` : ''}`) : null,
  );
}

const indent = (text: string) => text.replace(/\n/g, '\n  ');
