import type { Explainer } from '../explainer';

export const bare: Explainer = {
  what: 'BARE keeps one FIFO but estimates each active flow’s rate and gives it a buffer limit maxth that shrinks as the number of flows N grows. A packet of flow i is dropped with probability (q_i/maxth)^β_i, with q_i the flow’s queued amount; β_i is lowered (more drops) for a flow sending above the fair rate BW/N while the queue is above target, and raised otherwise. Weighted BARE scales each flow’s limit and fair rate by a weight set at the source.',
  formula: String.raw`\begin{gathered}
p_i = \left(\frac{q_i}{\mathit{maxth}}\right)^{\beta_i},\quad \mathit{maxth} = \frac{\mathit{vmaxq}}{N} \\
\beta_i \leftarrow \begin{cases} \beta_i\,\frac{\mathit{ratefair}}{\mathit{rate}_i} & \mathit{rate}_i > \mathit{ratefair}, \\ & \mathit{avgq} > \mathit{targetq} \\ a\,\beta_i & \text{otherwise} \end{cases} \\
\mathit{ratefair} = BW/N
\end{gathered}`,
  rule: [
    'vmaxq = max(N·low, min(N·high, plateau))',
    '  (a reading: the paper’s Fig. 1,',
    '   the virtual threshold function,',
    '   is lost; prose and Appendix A)',
    'maxth = vmaxq/N,  ratefair = BW/N',
    'targetq = min(vmaxq/2, maxtargetq)',
    'q ≥ vmaxq or buffer full: drop',
    'fair_drop on and q ≥ fdth: drop',
    'every 4·maxth of flow i’s arrivals:',
    '  rate_i > ratefair and avg > targetq:',
    '    β_i ← β_i·ratefair/rate_i',
    '  else β_i ← alpha·β_i',
    '  (β_i kept in [beta_min, beta_max])',
    'drop with p_i = (q_i/maxth)^β_i',
  ],
  tryThis: [
    {
      preset: 'bare-12-tcp-8-cbr',
      text: 'Eight CBR flows send 3 Mb/s each, three times the 1 Mb/s fair share: on Goodput per flow they are held to about 1.2 Mb/s, the TCP flows get about 0.8 Mb/s, and the queue averages about 78 packets.',
    },
    {
      preset: 'bare-weighted-tcp',
      text: 'Eight TCP flows with weights 1, 2, 3, 4: the pairs get about 1, 2, 2.9 and 3.6 Mb/s.',
    },
  ],
};
