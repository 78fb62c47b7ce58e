import type { Explainer } from '../explainer';

export const red: Explainer = {
  what: 'RED averages the queue length over time and drops arriving packets at random before the buffer is full, more often the longer the average. Random early drops slow down a few TCP senders at a time instead of all at once, and hold the average queue between min_th and max_th. Short bursts pass and a queue that stays long is pushed back; by default (wait on, the rule ns-2 and ns-3 run and the papers’ ns-2 simulations used) at least 1/p_b arrivals pass between two early drops, while wait off, Floyd & Jacobson’s 1993 rule, drops about three times as often at the same average.',
  formula: String.raw`\begin{aligned}
\avg &\leftarrow (1 - w_q)\,\avg + w_q\,q \\
p_b &= \maxp\,\frac{\avg - \minth}{\maxth - \minth} \\
p_a &= \frac{p_b}{2 - \mathit{count}\cdot p_b}\ \text{once}\ \mathit{count}\cdot p_b \ge 1
\end{aligned}`,
  rule: [
    'avg ← (1 − w_q)·avg + w_q·q',
    'avg < min_th: no early drop',
    'min_th ≤ avg < max_th:',
    '  p_b = max_p·(avg − min_th)',
    '            /(max_th − min_th)',
    '  wait on (default, as ns-2/ns-3):',
    '    count·p_b < 1: p_a = 0',
    '    else p_a = p_b/(2 − count·p_b)',
    '  wait off (Floyd & Jacobson 1993):',
    '    p_a = p_b/(1 − count·p_b)',
    '  drop (or ECN-mark) with p_a',
    'avg ≥ max_th: drop',
    '  (gentle: p_b rises from max_p to 1',
    '   between max_th and 2·max_th)',
    'count = arrivals since the last drop',
  ],
  tryThis: [
    {
      preset: 'red-ten-flows',
      text: 'Drag max_p or max_th while it runs and watch the average queue (orange line on Queue length) settle at a new level.',
    },
    {
      preset: 'tcp-sync-droptail',
      text: 'Load it and pick RED: the mean queue falls from about 18 packets to about 10 and the drops are early, random ones instead of overflows; compare the Goodput over time lines with Drop Tail.',
    },
  ],
};
