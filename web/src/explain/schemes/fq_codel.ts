import type { Explainer } from '../explainer';

export const fqCodel: Explainer = {
  what: 'FQ-CoDel hashes each flow into its own queue, serves the queues round robin a quantum of bytes at a time, and runs CoDel separately on each queue. A queue that becomes active joins a “new flows” list that is served first, so a flow sending less than a quantum per round (a ping, a game, DNS) hardly waits. When the buffer is full it drops from the queue holding the most bytes.',
  formula: String.raw`\begin{gathered}
i = h(\text{flow}) \bmod \mathit{flows} \\
\mathit{deficit}_i \le 0:\ \mathit{deficit}_i \mathrel{+}= \mathit{quantum}, \\
i \to \text{tail of old\_flows} \\
\text{else send through CoDel}_i,\ \mathit{deficit}_i \mathrel{-}= \ell
\end{gathered}`,
  rule: [
    'enqueue: queue = hash(flow) mod flows',
    '  inactive queue: to new_flows,',
    '    deficit = quantum',
    '  buffer full: drop the head of',
    '    the queue with the most bytes',
    'dequeue: head queue of new_flows,',
    '  else of old_flows:',
    '  deficit ≤ 0: deficit += quantum,',
    '    move it to the tail of old_flows',
    '  else send through its CoDel,',
    '    deficit −= size',
  ],
  tryThis: [
    {
      preset: 'fq-codel-sparse-flow',
      text: 'A 64 kb/s ping beside ten bulk TCP flows: the mean delay is about 9 ms, and the ping’s packets, alone in their queue, overtake the bulk queues (about 0 ms of waiting; with plain CoDel they wait about 9 ms like the rest).',
    },
    {
      preset: 'red-vs-droptail-cbr',
      text: 'Pick FQ-CoDel: the 1 Mb/s CBR flow gets about 30 kb/s, the same as each TCP flow.',
    },
  ],
};
