import type { Explainer } from '../explainer';

export const fqCobalt: Explainer = {
  what: 'FQ-COBALT hashes each flow into its own queue and serves the queues round robin, as FQ-CoDel does, but each queue runs COBALT: CoDel with a slowly decaying count, plus BLUE for flows that do not respond. When the buffer is full it drops from the queue holding the most bytes.',
  formula: String.raw`\begin{gathered}
i = h(\text{flow}) \bmod \mathit{flows} \\
\text{queue } i\text{ runs COBALT}_i\text{:} \\
\text{CoDel, then BLUE with } p_i \\
\text{buffer full: drop from } \arg\max_i \mathit{bytes}_i
\end{gathered}`,
  rule: [
    'enqueue: queue i = hash(flow) mod flows',
    '  buffer full: drop the head of',
    '    the queue with the most bytes',
    'dequeue: deficit round robin,',
    '  new flows first',
    '  the packet passes queue i’s COBALT:',
    '  CoDel at interval/√count,',
    '  BLUE drops with p_i',
  ],
  tryThis: [
    {
      preset: 'red-vs-droptail-cbr',
      text: 'Pick FQ-COBALT: the CBR flow is held to about a TCP flow’s share, and the TCP flows keep their queues near target.',
    },
  ],
};
