import type { Explainer } from '../explainer';

export const dsred: Explainer = {
  what: 'DSRED averages the queue like RED but drops with a line of two segments between K_l and K_h, with the kink at the midpoint K_m. The mode selector γ puts the drop probability at the kink at 1 − γ: a small γ makes the first segment steep, a large γ makes it shallow and the second segment climb steeply to 1 at K_h. Each arrival is dropped independently with probability p_d, without RED’s count spacing.',
  formula: String.raw`\begin{gathered}
p_d = \begin{cases} 0 & \avg < K_l \\ \alpha\,(\avg - K_l) & K_l \le \avg < K_m \\ 1 - \gamma + \beta\,(\avg - K_m) & K_m \le \avg < K_h \\ 1 & \avg \ge K_h \end{cases} \\
K_m = \tfrac{K_l + K_h}{2},\quad \alpha = \frac{2(1 - \gamma)}{K_h - K_l},\quad \beta = \frac{2\gamma}{K_h - K_l}
\end{gathered}`,
  rule: [
    'avg ← (1 − w)·avg + w·q',
    'K_m = (K_l + K_h)/2',
    'α = 2(1 − γ)/(K_h − K_l)',
    'β = 2γ/(K_h − K_l)',
    'avg < K_l:  p_d = 0',
    'K_l ≤ avg < K_m:',
    '  p_d = α·(avg − K_l)',
    'K_m ≤ avg < K_h:',
    '  p_d = 1 − γ + β·(avg − K_m)',
    'avg ≥ K_h:  p_d = 1',
  ],
  tryThis: [
    {
      preset: 'dsred-three-ftp',
      text: 'Three FTP flows with the paper’s settings (γ = 0.96): the Drop-probability curve has its kink at K_m = 13 packets, p_d = 0.04. Set γ to 0.91, the paper’s other case: the first segment steepens and the mean queue falls slightly (about 4 packets instead of 5).',
    },
  ],
};
