import type { Explainer } from '../explainer';

export const pie: Explainer = {
  what: 'PIE estimates the queueing delay and every 15 ms adjusts a drop probability p: up when the delay is above target or growing, down when it is below target or shrinking. Arrivals are dropped with probability p, except during a burst allowance after a calm period and while the queue is nearly empty. Like CoDel it controls delay rather than queue length, but it drops on arrival instead of at the head.',
  formula: String.raw`\begin{gathered}
\text{every } t_{update}\text{:} \\
\begin{aligned} p \leftarrow p &+ \alpha\,(\mathit{qdelay} - \mathit{target}) \\ &+ \beta\,(\mathit{qdelay} - \mathit{qdelay}_{old}) \end{aligned} \\
\text{drop with } p \text{ except when} \\
\mathit{qdelay}_{old} < \tfrac{\mathit{target}}{2} \land p < 0.2
\end{gathered}`,
  rule: [
    'every t_update:',
    '  Δp = α·(qdelay − target)',
    '     + β·(qdelay − qdelay_old)',
    '  Δp scaled down while p is small',
    '    (÷2048 below 10⁻⁶ … ÷2 below 0.1)',
    '  p ← p + Δp, kept in [0, 1]',
    'each arrival: drop with p, except if',
    '  qdelay_old < target/2 and p < 0.2,',
    '  or at most 2 packets queued,',
    '  or burst allowance left',
  ],
  tryThis: [
    {
      preset: 'pie-bufferbloat',
      text: 'The bufferbloat preset with PIE: the queue averages about 21 packets (17 ms, near the 15 ms target) instead of about 840 under Drop Tail. Watch the burst allowance run out at the start and p settle.',
    },
  ],
};
