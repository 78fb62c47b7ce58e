import type { Scenario } from './types';

/** What the app opens with: RED on a 10 Mb/s bottleneck shared by TCP and unresponsive Poisson traffic. */
export const DEFAULT_SCENARIO: Scenario = {
  version: 1,
  name: 'RED with 8 TCP flows and Poisson cross traffic',
  seed: 1,
  duration_s: 60,
  measure_from_s: 10,
  sample_interval_ms: 10,
  topology: {
    kind: 'dumbbell',
    bottleneck: { rate_bps: 10_000_000, delay_ms: 10 },
    buffer: { packets: 150 },
    access: { rate_bps: 100_000_000, delay_ms: 2 },
  },
  queue: { scheme: 'red', params: { min_th: 20, max_th: 60, max_p: 0.1, w_q: 0.002 } },
  flows: [
    {
      kind: 'tcp',
      label: 'TCP',
      count: 8,
      cc: 'newreno',
      segment_bytes: 1000,
      // A receiver window of about twice the path's BDP, as Zhou, Yeung & Li 2009 sets it: without one, the first
      // flow's lone slow start overshoots far enough to stall it in go-back-N timeouts (no SACK).
      rwnd_packets: 64,
      access_delay_ms: [2, 30],
      start_s: [0, 2],
    },
    { kind: 'poisson', label: 'Poisson', count: 2, rate_bps: 2_500_000, packet_bytes: 1000 },
  ],
};
