import type { Explainer } from '../explainer';

export const droptail: Explainer = {
  what: 'A single first-in first-out queue: an arrival is queued if there is room and dropped if the buffer is full. Flows that lose packets at the same overflow all slow down at once and then speed up together again (global synchronisation). A large buffer stays nearly full, so every packet waits behind it: the queueing delay grows with the buffer size (bufferbloat).',
  formula: String.raw`\text{arrival} \to \begin{cases} \text{queue} & q + \ell \le B \\ \text{drop} & \text{otherwise} \end{cases}`,
  rule: ['B = buffer size', 'q + packet ≤ B: queue the arrival', 'otherwise:     drop the arrival'],
  tryThis: [
    {
      preset: 'tcp-sync-droptail',
      text: 'Four TCP flows with equal round-trip times: on Goodput over time the lines fall together after each overflow and rise together again.',
    },
    {
      preset: 'bufferbloat',
      text: 'Ten TCP flows fill a 1000-packet buffer: the link stays busy but the queue averages about 840 packets, some 700 ms of waiting for every packet.',
    },
  ],
};
