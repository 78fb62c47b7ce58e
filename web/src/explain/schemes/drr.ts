import type { Explainer } from '../explainer';

export const drr: Explainer = {
  what: 'DRR gives every flow its own FIFO and serves the backlogged flows in turn: each turn a flow may send up to a quantum of bytes plus what it left unused before (its deficit). Every backlogged flow thus gets the same number of bytes per round whatever its packet sizes, so an unresponsive flow cannot take more than its share of the link. When the shared buffer is full, the head packet of the longest flow queue is dropped, so a flow that floods the buffer loses its own packets.',
  formula: String.raw`\begin{gathered}
\text{flow } i\text{'s turn: } \mathit{DC}_i \leftarrow \mathit{DC}_i + Q \\
\text{while } \ell \le \mathit{DC}_i:\ \text{send},\ \mathit{DC}_i \leftarrow \mathit{DC}_i - \ell \\
\text{overflow: drop the head of } \arg\max_j q_j
\end{gathered}`,
  rule: [
    'turn of flow i: DC_i ← DC_i + Q',
    '  while head packet ≤ DC_i:',
    '    send it, DC_i ← DC_i − size',
    '  queue empty: DC_i ← 0, leave list',
    '  else: go to the tail of the list',
    'buffer over its limit:',
    '  drop the head of the longest queue',
  ],
  tryThis: [
    {
      preset: 'red-vs-droptail-cbr',
      text: 'Load it and pick DRR: the CBR flow gets about 30 kb/s, the same as each TCP flow. But DRR drops only on overflow, so the buffer stays full (about 99 packets, some 670 ms of delay).',
    },
    {
      preset: 'bare-12-tcp-8-cbr',
      text: 'Pick DRR: every flow, CBR or TCP, gets almost exactly 1 Mb/s, with about 320 packets queued where BARE keeps about 78.',
    },
  ],
};
