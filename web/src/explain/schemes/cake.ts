import type { Explainer } from '../explainer';

export const cake: Explainer = {
  what: 'CAKE gives each flow its own queue, using an 8-way set-associative hash so that two flows share a queue only when all 8 ways of their set are busy, and runs COBALT on each queue. It shares the link first between hosts (source and destination) and then between each host’s flows, by dividing a flow’s quantum by the number of bulk flows its host has. A built-in shaper can hold the output to a set rate.',
  formula: String.raw`\begin{gathered}
\text{queue} = \text{free way of set } h(\text{flow}) \\
\mathit{deficit} \mathrel{+}= \frac{\mathit{quantum}}{\max(n_{\text{src}}, n_{\text{dst}})} \\
\text{queue runs COBALT: CoDel, then BLUE} \\
t_{\text{next}} \mathrel{+}= \mathit{size}/\mathit{rate}
\end{gathered}`,
  rule: [
    'enqueue: hash the flow to a set of 8 ways;',
    '  take its own way, else a free one,',
    '  else share (a collision)',
    '  buffer full: drop from the fattest queue,',
    '    whose BLUE steps up',
    'dequeue: round robin, new flows first;',
    '  a turn adds quantum / host load,',
    '    the bulk flows of its busier host',
    '  the packet passes the queue’s COBALT',
    'shaper: send no earlier than t_next',
  ],
  tryThis: [
    {
      preset: 'cake-host-fairness',
      text: 'Host A’s one flow and host B’s eight flows split the link about evenly (4.66 and 4.93 Mb/s); turn host_isolation off and B takes 8/9.',
    },
    {
      preset: 'cake-cbr-isolation',
      text: 'The 5 Mb/s CBR is held near a ninth of the link (1.50 Mb/s) and the TCP flows share the rest; set rate_bps to 5000000 and CAKE’s shaper halves the total (4.2 and 0.57 Mb/s) at the same shares.',
    },
  ],
};
