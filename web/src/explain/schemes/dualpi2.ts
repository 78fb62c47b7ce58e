import type { Explainer } from '../explainer';

export const dualpi2: Explainer = {
  what: 'DualPI2 keeps two queues: L4S traffic (ECN codepoint ECT(1) or CE, from scalable senders such as DCTCP) goes to the L queue, everything else to the classic C queue. Every 16 ms a PI controller moves a base probability p′ from the queueing delay and its change; classic packets are dropped or marked with p′², L4S packets marked with k·p′ or always once they waited 1 ms, which keeps the L queue almost empty. A weighted round robin serves L first but gives the classic queue 10 % of the link while both are busy.',
  formula: String.raw`\begin{gathered}
\text{every } T_{update}\text{:} \\
\begin{aligned} p' \leftarrow p' &+ \alpha\,(q_C - \mathit{target}) \\ &+ \beta\,(q_C - q_{C,prev}) \end{aligned} \\
p_C = p'^2 \qquad p_L = \max\!\big(p_{step},\ \min(k\,p', 1)\big) \\
p' > 1/k:\ \text{L packets dropped with } p_C
\end{gathered}`,
  rule: [
    'ECT(1), CE → L queue; ECT(0), Not-ECT → C queue',
    'every t_update:',
    '  q_C = longer head sojourn of the two queues',
    '  p′ += α·(q_C − target) + β·(q_C − q_C,prev)',
    '  p′ kept in [0, 1]',
    'dequeue (WRR, C gets c_protection % when both busy):',
    '  L packet: mark with p_L = max(p_step, min(k·p′, 1))',
    '    p_step = 1 if it waited ≥ step_thresh',
    '      (step_range > 0: rises from 0 to 1 over step_range, RFC 9332 App. A)',
    '    overload (p′ > 1/k): drop with p_C instead',
    '  C packet: with p_C = p′², mark if ECT(0), else drop',
  ],
  tryThis: [
    {
      preset: 'pie-bufferbloat',
      text: 'Load the PIE bufferbloat preset and switch the scheme to DualPI2: all ten flows are classic, so only the C queue is used and p′² behaves like PIE, holding the delay near the 15 ms target (about 15.5 ms on average, 18 packets).',
    },
    {
      preset: 'dualpi2-prague-cubic',
      text: 'Load the Prague + CUBIC preset: with k = 2 the two flows get similar rates (Prague about 1.4× CUBIC) while Prague’s packets wait under 1 ms. Set k to 8 and CUBIC takes about 2.6× Prague’s rate.',
    },
  ],
};
