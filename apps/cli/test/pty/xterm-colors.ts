/** The 16 ANSI colours of the screenshots' theme (dark background, as most terminals ship). */
const ansi16 = [
  '#1e1e2e', '#f38ba8', '#a6e3a1', '#f9e2af', '#89b4fa', '#f5c2e7', '#94e2d5', '#bac2de',
  '#585b70', '#f38ba8', '#a6e3a1', '#f9e2af', '#89b4fa', '#f5c2e7', '#94e2d5', '#a6adc8',
];

export const theme = { background: '#11111b', foreground: '#cdd6f4', title: '#6c7086' };

/** An xterm 256-colour palette index as a CSS hex colour: 16 ANSI, a 6x6x6 cube, 24 greys. */
export function paletteColor(index: number): string {
  if (index < 16) return ansi16[index] as string;
  if (index < 232) {
    const cube = index - 16;
    const level = (value: number) => (value === 0 ? 0 : 55 + value * 40);
    return rgbColor((level(Math.floor(cube / 36)) << 16) | (level(Math.floor(cube / 6) % 6) << 8) | level(cube % 6));
  }
  const grey = 8 + (index - 232) * 10;
  return rgbColor((grey << 16) | (grey << 8) | grey);
}

/** xterm's packed 24-bit colour (0xRRGGBB) as CSS. */
export function rgbColor(packed: number): string {
  return `#${packed.toString(16).padStart(6, '0')}`;
}
