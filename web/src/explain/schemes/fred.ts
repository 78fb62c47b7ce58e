import type { Explainer } from '../explainer';

export const fred: Explainer = {
  what: 'FRED is RED plus a count of each active flow’s packets in the buffer (a flow is active while it has packets queued). It drops early only from flows holding at least their share of the queue, never from a flow with fewer than min_q packets queued, and gives a strike to any flow caught over its limit. A flow with repeated strikes, typically an unresponsive one, is then held to the average per-flow queue.',
  formula: String.raw`\begin{gathered}
\mathit{avgcq} = \max\!\left(\tfrac{\avg}{n_{\mathit{active}}},\ 1\right) \\
\text{drop if } \mathit{qlen}_i \ge \mathit{maxq}, \\
\text{or } \avg \ge \maxth \land \mathit{qlen}_i > 2\,\mathit{avgcq}, \\
\text{or } \mathit{qlen}_i \ge \mathit{avgcq} \land \mathit{strike}_i > 1; \\
\text{else if } \mathit{qlen}_i \ge \max(\mathit{min}_q,\ \mathit{avgcq}): \\
\text{drop with RED’s } p_a\ (\text{wait switch})
\end{gathered}`,
  rule: [
    'avgcq = max(avg/active flows, 1 packet)',
    'drop, strike_i += 1, if:',
    '  qlen_i ≥ maxq, or',
    '  avg ≥ max_th and qlen_i > 2·avgcq, or',
    '  qlen_i ≥ avgcq and strike_i > 1',
    'min_th ≤ avg < max_th and',
    '  qlen_i ≥ max(min_q, avgcq):',
    '  drop with RED’s p_a',
    'avg ≥ max_th: drop',
    'maxq = min_th; 2 packets if avg ≥ max_th',
    '  (as Lin & Morris’s listing sets it)',
    'p_a: RED’s count rule (wait switch)',
  ],
  tryThis: [
    {
      preset: 'red-vs-droptail-cbr',
      text: 'Load it and pick FRED: on Goodput per flow the 1 Mb/s CBR flow falls from about 720 kb/s (the preset’s RED) to about 190 kb/s, though still well above a TCP flow’s share.',
    },
  ],
};
