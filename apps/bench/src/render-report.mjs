// BENCHMARKS.md from the collected results: the machine and command first, then one section per
// benchmark with its JSON result lines (each benchmark documents its own fields).
export function renderReport(machine, results) {
  const lines = [
    '# Benchmarks',
    '',
    'Measured with `pnpm bench` (which builds first and then runs `node apps/bench/src/run-all.mjs`).',
    'Numbers are medians where a benchmark repeats; speed is only measured here, never asserted in tests.',
    '',
    '| machine | |',
    '|---|---|',
    `| CPU | ${machine.cpu} |`,
    `| cores | ${machine.cores} |`,
    `| memory | ${machine.memoryGiB} GiB |`,
    `| Node.js | ${machine.node} (${machine.platform}) |`,
    `| date | ${machine.date} |`,
    '',
  ];
  for (const result of results) {
    lines.push(`## ${result.name}`, '', `Script: \`${result.script}\``, '');
    if (result.status === 'missing') lines.push('Not present in this checkout.', '');
    else if (result.status === 'failed') lines.push('**Failed:**', '', '```', result.error || '(no output)', '```', '');
    else {
      lines.push(`Took ${result.seconds} s.`, '', '```json');
      for (const entry of result.results) lines.push(JSON.stringify(entry));
      lines.push('```', '');
    }
  }
  return `${lines.join('\n')}\n`;
}
