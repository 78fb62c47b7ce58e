import type { Explainer } from '../explainer';

export const blue: Explainer = {
  what: 'BLUE ignores the queue length when setting its drop probability: it keeps one probability p_m, raises it by d1 when the buffer overflows and lowers it by d2 when the link goes idle. Each arrival is dropped (or ECN-marked) with probability p_m, so p_m settles at the level that avoids both overflow and idle time. freeze_time spaces the changes so that each can take effect before the next.',
  formula: String.raw`\begin{gathered}
p_m \leftarrow \begin{cases} p_m + d_1 & \text{loss, or } q > L \\ p_m - d_2 & \text{link idle} \end{cases} \\
\text{at most once per } \mathit{freeze\_time}
\end{gathered}`,
  rule: [
    'overflow (or q > l_fraction·B):',
    '  if now − last > freeze_time:',
    '    p_m ← p_m + d1, last ← now',
    'link idle:',
    '  if now − last > freeze_time:',
    '    p_m ← p_m − d2, last ← now',
    'each arrival: drop or mark with p_m',
  ],
  tryThis: [
    {
      preset: 'bufferbloat',
      text: 'Load it and pick BLUE: after the first overflows p_m stays up and the queue averages about 41 packets (34 ms) instead of about 840, with almost the same goodput. Watch the p_m probe.',
    },
  ],
};
