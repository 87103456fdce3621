// Preloaded (`node -r`) into every process the CLI start-up benchmark spawns: at exit, the
// process's peak resident memory goes to file descriptor 3, which the benchmark reads. Node keeps
// no record of a child's resource use, and the cost of this file is the same for every subject.
const { writeSync } = require('node:fs');

process.on('exit', () => {
  try {
    writeSync(3, `${process.resourceUsage().maxRSS}\n`);
  } catch {
    // not started by the benchmark
  }
});
