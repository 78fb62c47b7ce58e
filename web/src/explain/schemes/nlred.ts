import type { Explainer } from '../explainer';

export const nlred: Explainer = {
  what: "NLRED is RED with the straight-line drop probability replaced by a parabola. Just above min_th it drops much less than RED and near max_th more, so light load passes almost untouched while a growing queue is pushed back hard. Everything else (the average, the count spacing with RED’s wait switch, dropping everything at max_th) is RED's.",
  formula: String.raw`\begin{aligned}
x &= \frac{\avg - \minth}{\maxth - \minth} \\
p_b &= 1.5\,\maxp\,x^2 \\
p_a &= \frac{p_b}{2 - \mathit{count}\cdot p_b}\ \text{once}\ \mathit{count}\cdot p_b \ge 1
\end{aligned}`,
  rule: [
    'x = (avg − min_th)/(max_th − min_th)',
    'min_th ≤ avg < max_th:',
    '  p_b = 1.5·max_p·x²   (at most 1)',
    '  p_a as RED’s (wait on by default)',
    'avg ≥ max_th: drop',
    '1.5·max_p: same area under the curve',
    '  as RED’s line with max_p',
  ],
  tryThis: [
    {
      preset: 'nlred-20-tcp',
      text: 'Twenty TCP Reno flows on 1.5 Mb/s: the Drop-probability curve shows the parabola and where the operating point sits on it. Then pick RED and set min_th 10, max_th 30 as here: the average queue comes out about the same (about 29 packets), but the drop probability at a given average differs.',
    },
  ],
};
