import type { Explainer } from '../explainer';

export const ared: Explainer = {
  what: 'Adaptive RED is gentle RED whose max_p is tuned automatically so that the average queue settles in the middle of [min_th, max_th], whatever the number of flows. Every interval (0.5 s by default) it raises max_p a little if the average is above a target band and cuts it by 10% if it is below. With its automatic settings it also picks min_th, max_th and w_q from the link rate and a target delay.',
  formula: String.raw`\begin{gathered}
\maxp \leftarrow \begin{cases} \maxp + \min(0.01,\ \tfrac{\maxp}{4}) & \avg > t_{hi} \\ 0.9\,\maxp & \avg < t_{lo} \end{cases} \\
t_{lo},\, t_{hi} = \minth + (0.4,\, 0.6)\,(\maxth - \minth) \\
0.01 \le \maxp \le 0.5
\end{gathered}`,
  rule: [
    'band = min_th + [0.4, 0.6]·(max_th − min_th)',
    'every interval:',
    '  avg > band high and max_p < 0.5:',
    '    max_p ← max_p + min(0.01, max_p/4)',
    '  avg < band low and max_p > 0.01:',
    '    max_p ← 0.9·max_p',
    'each arrival: gentle RED with max_p',
  ],
  tryThis: [
    {
      preset: 'ared-5-to-100-flows',
      text: 'Five TCP flows, then 95 more at 30 s: the "current max_p" probe sits near 0.03 and after 30 s climbs to its 0.5 ceiling, holding the average queue near the top of the target band (the two band probes). With wait off (Floyd & Jacobson’s count rule, about three times the drops at the same p_b) it settles near 0.17 inside the band.',
    },
    {
      preset: 'ared-5-to-100-flows',
      text: 'Pick RED (fixed max_p 0.1) and run it again: with 100 flows the average passes max_th and about four drops in five become forced instead of early.',
    },
  ],
};
