/** What a terminal sends for each named key (xterm's normal cursor mode). */
export const keys = {
  enter: '\r',
  tab: '\t',
  escape: '\x1b',
  backspace: '\x7f',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  'ctrl-c': '\x03',
  'ctrl-d': '\x04',
  'ctrl-j': '\n',
  // Shift+Enter as terminals with the kitty/xterm modifyOtherKeys protocol send it.
  'shift-enter': '\x1b[13;2u',
} as const;

export type KeyName = keyof typeof keys;

/** A bracketed paste: what a terminal sends when text is pasted into a program that asked for it. */
export function bracketedPaste(text: string): string {
  return `\x1b[200~${text}\x1b[201~`;
}
