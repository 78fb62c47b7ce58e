import type { Explainer } from '../explainer';

export const fqPie: Explainer = {
  what: 'FQ-PIE hashes each flow into its own queue and serves the queues round robin, as FQ-CoDel does, but each queue runs its own PIE controller. Every 15 ms each queue’s drop probability is updated from that queue’s own delay, and arrivals to it are dropped (or marked) with it. A flow that does not slow down fills and loses only in its own queue.',
  formula: String.raw`\begin{gathered}
i = h(\text{flow}) \bmod \mathit{flows} \\
p_i \mathrel{+}= \alpha\,(d_i - \mathit{target}) + \beta\,(d_i - d_i^{\mathit{old}}) \\
\text{drop an arrival to queue } i \text{ with } p_i
\end{gathered}`,
  rule: [
    'enqueue: queue i = hash(flow) mod flows',
    '  PIE of queue i: drop with p_i',
    '  buffer full: drop the head of',
    '    the queue with the most bytes',
    'every t_update, for each queue:',
    '  d_i = sojourn of its last packet',
    '  p_i += α(d_i − target) + β(d_i − d_old)',
    'dequeue: deficit round robin,',
    '  new flows first',
  ],
  tryThis: [
    {
      preset: 'red-vs-droptail-cbr',
      text: 'Pick FQ-PIE: the CBR flow’s own queue is the one that fills and is dropped, so its share falls to about a TCP flow’s.',
    },
  ],
};
