import type { Explainer } from '../explainer';

export const csfq: Explainer = {
  what: 'CSFQ approximates fair queueing without per-flow state in the core: the first router a flow meets (the edge) estimates its rate and writes it into each packet as a label. Every router estimates the fair share α, the rate that just fills its link, and drops a packet labelled r with probability 1 − α/r, so each flow leaves with at most α. Packets that pass carry the label min(r, α) to the next router.',
  formula: String.raw`\begin{aligned}
r_i &\leftarrow \left(1 - e^{-T/K}\right)\frac{\ell}{T} + e^{-T/K}\,r_i \quad \text{(edge)} \\
p &= \max\!\left(0,\ 1 - \frac{\alpha}{r}\right),\quad r \leftarrow \min(r, \alpha)
\end{aligned}`,
  rule: [
    'edge, per flow (T = gap, K = k_ms):',
    '  r ← (1 − e^(−T/K))·len/T + e^(−T/K)·r',
    '  label = r',
    'every router:',
    '  p = max(0, 1 − α/label)',
    '  passed and p > 0: label ← α',
    'α: A ≥ C, every K_c: α ← α·C/F',
    '   A < C for K_c: α ← largest label',
    '   each overflow: α ← 0.99·α',
    'A, F = arrival, accepted rate; C = link',
  ],
  tryThis: [
    {
      preset: 'csfq-20-cbr-water-filling',
      text: 'CBR flows at 0.5, 1, 1.5 and 2 Mb/s on 20 Mb/s: the small ones keep their rate and the 1.5 and 2 Mb/s flows are cut to about 1.2 Mb/s each (max-min fair share 1.25 Mb/s); the α probe shows the share.',
    },
    {
      preset: 'red-vs-droptail-cbr',
      text: 'Pick CSFQ: the 1 Mb/s CBR flow gets about 140 kb/s instead of about 720 kb/s under RED.',
    },
  ],
};
