// The hot-path targets (issue 13) checked against the openai-loop ratios. Reported, never asserted.

/** How much Cairn's added cost per step may rise from steps 1-100 to steps 900-1000 and still count as flat. */
export const flatToleranceMs = 1;

export function loopTargets(ratios) {
  const targets = [
    { measure: 'start-up to first request vs raw openai loop', aim: '<= 1.4x', measured: `${ratios.startup}x`, met: ratios.startup <= 1.4 },
    { measure: 'added time per step vs raw openai loop (20 steps)', aim: '<= +2 ms', measured: `+${ratios.stepDeltaMs} ms`, met: ratios.stepDeltaMs <= 2 },
    { measure: 'peak RSS vs raw openai loop', aim: '<= 1.3x', measured: `${ratios.peakRss}x`, met: ratios.peakRss <= 1.3 },
  ];
  if (ratios.stepDeltaFirst100Ms !== undefined) {
    const rise = Math.round((ratios.stepDeltaLast100Ms - ratios.stepDeltaFirst100Ms) * 100) / 100;
    targets.push({
      measure: 'added time per step flat, steps 1-100 vs 900-1000',
      aim: `rise <= ${flatToleranceMs} ms`,
      measured: `+${ratios.stepDeltaFirst100Ms} -> +${ratios.stepDeltaLast100Ms} ms (rise ${rise} ms)`,
      met: rise <= flatToleranceMs,
    });
    targets.push({
      measure: 'memory growth per 100 steps (1,000-step run, live heap after GC)',
      aim: '<= 2 MB',
      measured: `${ratios.liveHeapGrowthMbPer100Steps} MB (RSS ${ratios.rssGrowthMbPer100Steps} MB; raw loop RSS ${ratios.rawRssGrowthMbPer100Steps} MB)`,
      met: ratios.liveHeapGrowthMbPer100Steps <= 2,
    });
  }
  return targets;
}
