import type { Explainer } from '../explainer';

export const codel: Explainer = {
  what: 'CoDel measures how long each packet has waited in the queue (its sojourn time) as it leaves. Once that delay has stayed above target for a whole interval, it drops the packet at the head and keeps dropping at shorter and shorter intervals until the delay falls below target. It reacts to how long packets wait rather than to how many are queued, so short bursts pass and a standing queue is removed.',
  formula: String.raw`\begin{gathered}
\mathit{sojourn} \ge \mathit{target} \text{ for an } \mathit{interval}\text{:} \\
\text{drop the head},\ \mathit{count} \leftarrow 1 \\
\text{at each } \mathit{drop\_next}\text{: drop},\ \mathit{count} \mathrel{+}= 1, \\
\mathit{drop\_next} \leftarrow \mathit{drop\_next} + \frac{\mathit{interval}}{\sqrt{\mathit{count}}}
\end{gathered}`,
  rule: [
    'sojourn = now − arrival time, at dequeue',
    'sojourn < target, or ≤ 1 MTU queued:',
    '  leave the dropping state',
    'above target for a whole interval:',
    '  drop the head, count = 1,',
    '  enter the dropping state',
    'dropping, at each drop_next:',
    '  drop the head, count += 1',
    '  drop_next += interval/√count',
    'count resumes from the last episode',
    '  if it ended < 16 intervals ago',
  ],
  tryThis: [
    {
      preset: 'codel-bufferbloat',
      text: 'The bufferbloat preset with CoDel: the queue averages about 11 packets (9 ms) instead of about 840 (700 ms) under Drop Tail, with almost the same goodput. Watch the "dropping state" probe switch on and off.',
    },
  ],
};
