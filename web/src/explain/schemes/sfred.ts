import type { Explainer } from '../explainer';

export const sfred: Explainer = {
  what: 'SFRED is RED plus a list of the most recently seen flows with each one’s packets received and dropped, so its work per packet grows with the list size rather than with the number of flows. A flow sending more than its fair share gets a proportionally higher max_p; a fast flow whose loss rate is well above the average (it does not slow down when dropped) loses every packet; a new, slow flow gets both thresholds raised by k. Every other flow sees plain RED.',
  formula: String.raw`\begin{gathered}
T_f = \tfrac{H_r - H_d}{n},\quad T_i = H_{ri} \\
\text{slow } (H_{ri} < \eta,\ H_{di} = 0)\text{: RED, thresholds} + k \\
\text{fast } (T_i > (1 + \alpha)\,T_f)\text{:} \\
\text{drop if } \tfrac{H_{di}}{H_{ri}} > (1 + \beta)\,\tfrac{H_d}{H_r}, \\
\text{else RED with } \min\!\left(1,\ \maxp\,\tfrac{T_i}{T_f}\right) \\
\text{others: RED}
\end{gathered}`,
  rule: [
    'H_ri, H_di = flow i’s packets, drops',
    'H_r, H_d = list totals; n = flows',
    'T_f = (H_r − H_d)/n,  T_i = H_ri',
    'slow (H_ri < η and H_di = 0):',
    '  RED with min_th + k, max_th + k',
    'fast (T_i > (1 + α)·T_f):',
    '  H_di/H_ri > (1 + β)·H_d/H_r: drop',
    '  else RED, max_p·T_i/T_f (at most 1)',
    'otherwise: RED',
    'not in the paper, 0 turns each off:',
    '  window: halve all counters',
    '  idle_ms: forget a silent flow',
    '  both off, counters grow for ever:',
    '  long TCP flows stay "fast" and',
    '  starve, so both are on by default',
  ],
  tryThis: [
    {
      preset: 'red-vs-droptail-cbr',
      text: 'Load it and pick SFRED: the "unresponsive fast flows" probe shows the CBR flow, and on Goodput per flow it is cut off completely while the TCP flows share the link.',
    },
  ],
};
