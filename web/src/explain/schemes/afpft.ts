import type { Explainer } from '../explainer';

export const afpft: Explainer = {
  what: 'AFpFT keeps one shared queue sorted by a tag in each packet instead of by arrival order: each packet gets a start tag as in start-time fair queueing, the later of the virtual time v and its flow’s previous finish tag, so a flow with many packets queued gets tags far ahead of v. A flow sending above its fair share piles up large tags, which puts its packets at the tail of the queue. When the buffer is full the tail packet is dropped, so those flows lose packets and the others do not.',
  formula: String.raw`\begin{gathered}
S = \max(v,\ F_f),\quad \mathit{tag} = S,\quad F_f \leftarrow S + \ell/r \\
\text{overflow: drop the largest tag } q, \\
F_{f(q)} \leftarrow F_{f(q)} - \ell_q/r
\end{gathered}`,
  rule: [
    'arrival of p of flow f (count_f += 1):',
    '  edge router, or count_f ≥ 2:',
    '    S = max(v, finish_f)',
    '    finish_f = S + len/r;  tag = S',
    '  otherwise: tag = v',
    '  insert p in tag order',
    'over the limit: drop tail packet q,',
    '  its flow’s finish −= len(q)/r',
    'v = tag of the packet in service',
    'queue empty: v = 0, every flow reset',
  ],
  tryThis: [
    {
      preset: 'afpft-20-cbr',
      text: 'CBR flows at 0.5, 1, 1.5 and 2 Mb/s on 20 Mb/s: the small ones keep their rate and the 1.5 and 2 Mb/s flows get about 1.2 Mb/s each. Pick Drop Tail: the shares become arbitrary, some flows get nothing.',
    },
    {
      preset: 'afpft-parking-lot',
      text: 'The flow that crosses all three congested links gets about 0.88 Mb/s, like every other flow. Under Drop Tail it gets nothing.',
    },
  ],
};
