import type { Explainer } from '../explainer';

export const cobalt: Explainer = {
  what: 'COBALT is CAKE’s queue controller: CoDel for flows that respond to drops, and BLUE for those that do not. CoDel drops at interval/√count once packets have waited longer than target, and its count decays slowly afterwards instead of resetting. BLUE raises a drop probability each time the buffer overflows or a packet waited longer than 400 ms, and lowers it each time the queue runs empty.',
  formula: String.raw`\begin{gathered}
\text{CoDel: } \mathit{drop\_next} \mathrel{+}= \frac{\mathit{interval}}{\sqrt{\mathit{count}}} \\
\text{overflow or } s > 400\,\text{ms: } p \mathrel{+}= \tfrac{1}{256} \\
\text{queue empty: } p \mathrel{-}= \tfrac{1}{4096} \\
\text{drop each packet with } p
\end{gathered}`,
  rule: [
    'at dequeue, sojourn s:',
    '  s > target: CoDel dropping state',
    '  at each drop_next: drop or mark,',
    '    count += 1',
    '  not dropping: count −= 1 per',
    '    interval/√count (slow decay)',
    'BLUE, at most once per target:',
    '  overflow or s > 400 ms: p += 1/256',
    '  queue found empty: p −= 1/4096',
    '  drop each packet with p',
  ],
  tryThis: [
    {
      preset: 'codel-bufferbloat',
      text: 'Pick COBALT: the queue is held near target as with CoDel; watch the count probe fall slowly between dropping states instead of resetting.',
    },
  ],
};
