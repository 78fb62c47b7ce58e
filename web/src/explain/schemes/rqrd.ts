import type { Explainer } from '../explainer';

export const rqrd: Explainer = {
  what: 'RQRD combines CSFQ’s rate labels with a term based on the average queue: a packet is dropped only if its flow is above the fair share (p_R) and the queue is long (p_Q). p_Q has hysteresis: a low curve until the queue has stayed above Q_max for a while, then a high curve until it has stayed below Q_min, so short bursts pass. Packets of drop precedence 1 (loss-intolerant) are dropped only when the buffer is full, and the fair share is computed from the capacity they leave.',
  formula: String.raw`\begin{gathered}
p_d = p_R \cdot p_Q,\quad p_R = \max\!\left(0,\ 1 - \frac{\alpha}{r}\right) \\
p_Q = \begin{cases} 0 & Q \le Q_{min} \\ 1 - \sqrt{1 - x^2} & c_q = 0 \\ \sqrt{1 - (1 - x)^2} & c_q = 1 \\ 1 & Q \ge Q_{max} \end{cases} \\
x = \frac{Q - Q_{min}}{Q_{max} - Q_{min}}
\end{gathered}`,
  rule: [
    'p_R = max(0, 1 − α/label)     (CSFQ)',
    'x = (Q − Q_min)/(Q_max − Q_min)',
    'p_Q = 0 if Q ≤ Q_min, 1 if Q ≥ Q_max,',
    '  else c_q = 0: 1 − √(1 − x²)',
    '       c_q = 1: √(1 − (1 − x)²)',
    '  (the Ellipse pair; see pair)',
    'precedence 0: drop with p_d = p_R·p_Q,',
    '  else label ← (1 − p_d)·label',
    'precedence 1: drop only if buffer full',
    'α as in CSFQ, with C − P for C',
    'F = rate CSFQ’s test alone admits;',
    '  f_admitted: the paper’s literal F,',
    '  the rate queued, lets a CBR among',
    '  TCP keep 3.6× what CSFQ leaves it',
  ],
  tryThis: [
    {
      preset: 'rqrd-cbr-among-tcp',
      text: 'A CBR flow at the full 10 Mb/s among 20 TCP flows: it gets about 0.86 Mb/s, twice a TCP flow’s 0.43 Mb/s, instead of the link. Watch c_q and p_Q switch as the queue crosses Q_min and Q_max.',
    },
    {
      preset: 'rqrd-drop-precedence',
      text: 'The 8 Mb/s CBR flow has drop precedence 1: it keeps about 7.8 Mb/s and the TCP flows share the rest. Pick RED and it gets about 6.7 Mb/s.',
    },
  ],
};
