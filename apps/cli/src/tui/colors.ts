/**
 * Whether the chat paints in colour (off with NO_COLOR or when stderr is not a terminal). One chat
 * runs per process, so this is set once when it opens; bold, dim and inverse stay (they are not colour).
 */
let enabled = true;

export function setColors(on: boolean): void {
  enabled = on;
}

/** Ink's `color` prop, or nothing without colour. */
export const fg = (name: string | undefined): { color?: string } => (enabled && name ? { color: name } : {});

/** Ink's `borderColor` prop, or nothing without colour. */
export const border = (name: string): { borderColor?: string } => (enabled ? { borderColor: name } : {});
