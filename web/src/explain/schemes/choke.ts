import type { Explainer } from '../explainer';

export const choke: Explainer = {
  what: 'CHOKe is RED plus one comparison per arrival: once the average queue passes min_th it draws a random packet from the queue, and if that packet belongs to the arriving packet’s flow it drops both. A flow that fills much of the buffer is likely to be matched, so it is punished in proportion to its share without any per-flow state. Arrivals that do not match get RED’s usual treatment.',
  formula: String.raw`\begin{gathered}
\avg > \minth:\ c = \text{a random queued packet} \\
\mathit{flow}(c) = \mathit{flow}(\text{arrival}):\ \text{drop both} \\
\text{otherwise RED: drop with } p_a
\end{gathered}`,
  rule: [
    'avg ≤ min_th: admit',
    'else draw m = candidates queued packets:',
    '  same flow as the arrival:',
    '    drop that packet and the arrival',
    '  no match: RED (p_a between the',
    '    thresholds, drop above max_th)',
  ],
  tryThis: [
    {
      preset: 'red-vs-droptail-cbr',
      text: 'Load it and pick CHOKe: the CBR flow still gets about 490 kb/s. Set candidates to 4 and it falls to about 400 kb/s; the "share of compared arrivals matched" probe shows how often the draw hits.',
    },
  ],
};
