import type { Explainer } from '../explainer';

export const rem: Explainer = {
  what: 'REM keeps a “price” that rises when the queue is above the target b* or when packets arrive faster than the link can send them, and falls otherwise. Each arrival is marked or dropped with probability 1 − φ^(−price), so the congestion level is carried by the price, not by the queue length. Whatever the number of flows, the queue is steered to about b*.',
  formula: String.raw`\begin{aligned}
p &\leftarrow \bigl[p + \gamma\,(\alpha\,(b - b^{*}) + x - c)\bigr]^{+} \\
\Pr[\text{mark or drop}] &= 1 - \phi^{-p}
\end{aligned}`,
  rule: [
    'every T (interval_ms):',
    '  p ← max(0, p + γ·(α·(b − b*) + x − c))',
    '  b = queue now',
    '  x = arrivals during T',
    '  c = packets the link sends in T',
    'each arrival: mark (ECN) or drop',
    '  with probability 1 − φ^(−p)',
  ],
  tryThis: [
    {
      preset: 'rem-40-tcp',
      text: 'Forty TCP flows: the queue settles near b* = 20 packets (about 19) while the "price p" probe carries the load. Set b_star to 60 while it runs and watch the queue follow (about 58).',
    },
  ],
};
