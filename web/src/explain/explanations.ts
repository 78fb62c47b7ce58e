// Classroom explainers per scheme, keyed by catalogue id: what the scheme
// does, its drop/mark rule as a typeset formula (LaTeX for KaTeX, with the
// macros of formula.ts) and as plain-text lines, and experiments to
// try with a preset from scenarios/. Parameter meanings (the sliders' `doc`
// strings) and the paper with its year (`paper`) come from the engine's
// catalogue and are not repeated here. The numbers quoted in "try this" are
// from runs of the presets with the engine's default seed and parameters.

/** One experiment: the preset to load (a file id in scenarios/) and what to watch for. */
export interface TryThis {
  /** Scenario file name without `.json`; omitted when no preset fits. */
  preset?: string;
  text: string;
}

export interface Explainer {
  /** What the scheme does, in at most three sentences. */
  what: string;
  /** The drop/mark rule as LaTeX (display mode; macros in formula.ts). */
  formula: string;
  /** The drop/mark rule step by step, one line each; leading spaces indent. */
  rule: string[];
  /** One or two experiments. */
  tryThis: TryThis[];
}

export const EXPLANATIONS: Record<string, Explainer> = {
  droptail: {
    what: 'A single first-in first-out queue: an arrival is queued if there is room and dropped if the buffer is full. Flows that lose packets at the same overflow all slow down at once and then speed up together again (global synchronisation). A large buffer stays nearly full, so every packet waits behind it: the queueing delay grows with the buffer size (bufferbloat).',
    formula: String.raw`\text{arrival} \to \begin{cases} \text{queue} & q + \ell \le B \\ \text{drop} & \text{otherwise} \end{cases}`,
    rule: ['B = buffer size', 'q + packet ≤ B: queue the arrival', 'otherwise:     drop the arrival'],
    tryThis: [
      {
        preset: 'tcp-sync-droptail',
        text: 'Four TCP flows with equal round-trip times: on Goodput over time the lines fall together after each overflow and rise together again.',
      },
      {
        preset: 'bufferbloat',
        text: 'Ten TCP flows fill a 1000-packet buffer: the link stays busy but the queue averages about 840 packets, some 700 ms of waiting for every packet.',
      },
    ],
  },
  red: {
    what: 'RED averages the queue length over time and drops arriving packets at random before the buffer is full, more often the longer the average. Random early drops slow down a few TCP senders at a time instead of all at once, and hold the average queue between min_th and max_th. Short bursts pass and a queue that stays long is pushed back; by default (wait on, the rule ns-2 and ns-3 run and the papers’ ns-2 simulations used) at least 1/p_b arrivals pass between two early drops, while wait off, Floyd & Jacobson’s 1993 rule, drops about three times as often at the same average.',
    formula: String.raw`\begin{aligned}
\avg &\leftarrow (1 - w_q)\,\avg + w_q\,q \\
p_b &= \maxp\,\frac{\avg - \minth}{\maxth - \minth} \\
p_a &= \frac{p_b}{2 - \mathit{count}\cdot p_b}\ \text{once}\ \mathit{count}\cdot p_b \ge 1
\end{aligned}`,
    rule: [
      'avg ← (1 − w_q)·avg + w_q·q',
      'avg < min_th: no early drop',
      'min_th ≤ avg < max_th:',
      '  p_b = max_p·(avg − min_th)',
      '            /(max_th − min_th)',
      '  wait on (default, as ns-2/ns-3):',
      '    count·p_b < 1: p_a = 0',
      '    else p_a = p_b/(2 − count·p_b)',
      '  wait off (Floyd & Jacobson 1993):',
      '    p_a = p_b/(1 − count·p_b)',
      '  drop (or ECN-mark) with p_a',
      'avg ≥ max_th: drop',
      '  (gentle: p_b rises from max_p to 1',
      '   between max_th and 2·max_th)',
      'count = arrivals since the last drop',
    ],
    tryThis: [
      {
        preset: 'red-ten-flows',
        text: 'Drag max_p or max_th while it runs and watch the average queue (orange line on Queue length) settle at a new level.',
      },
      {
        preset: 'tcp-sync-droptail',
        text: 'Load it and pick RED: the mean queue falls from about 18 packets to about 10 and the drops are early, random ones instead of overflows; compare the Goodput over time lines with Drop Tail.',
      },
    ],
  },
  ared: {
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
  },
  nlred: {
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
  },
  dsred: {
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
  },
  rem: {
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
  },
  fred: {
    what: 'FRED is RED plus a count of each active flow’s packets in the buffer (a flow is active while it has packets queued). It drops early only from flows holding at least their share of the queue, never from a flow with fewer than min_q packets queued, and gives a strike to any flow caught over its limit. A flow with repeated strikes, typically an unresponsive one, is then held to the average per-flow queue.',
    formula: String.raw`\begin{gathered}
\mathit{avgcq} = \max\!\left(\tfrac{\avg}{n_{\mathit{active}}},\ 1\right) \\
\text{drop if } \mathit{qlen}_i \ge \mathit{maxq}, \\
\text{or } \avg \ge \maxth \land \mathit{qlen}_i > 2\,\mathit{avgcq}, \\
\text{or } \mathit{qlen}_i \ge \mathit{avgcq} \land \mathit{strike}_i > 1; \\
\text{else if } \mathit{qlen}_i \ge \max(\mathit{min}_q,\ \mathit{avgcq}): \\
\text{drop with RED’s } p_a\ (\text{wait switch})
\end{gathered}`,
    rule: [
      'avgcq = max(avg/active flows, 1 packet)',
      'drop, strike_i += 1, if:',
      '  qlen_i ≥ maxq, or',
      '  avg ≥ max_th and qlen_i > 2·avgcq, or',
      '  qlen_i ≥ avgcq and strike_i > 1',
      'min_th ≤ avg < max_th and',
      '  qlen_i ≥ max(min_q, avgcq):',
      '  drop with RED’s p_a',
      'avg ≥ max_th: drop',
      'maxq = min_th; 2 packets if avg ≥ max_th',
      '  (as Lin & Morris’s listing sets it)',
      'p_a: RED’s count rule (wait switch)',
    ],
    tryThis: [
      {
        preset: 'red-vs-droptail-cbr',
        text: 'Load it and pick FRED: on Goodput per flow the 1 Mb/s CBR flow falls from about 720 kb/s (the preset’s RED) to about 190 kb/s, though still well above a TCP flow’s share.',
      },
    ],
  },
  sfred: {
    what: 'SFRED is RED plus a list of the most recently seen flows with each one’s packets received and dropped, so its work per packet grows with the list size rather than with the number of flows. A flow sending more than its fair share gets a proportionally higher max_p; a fast flow whose loss rate is well above the average (it does not slow down when dropped) loses every packet; a new, slow flow gets both thresholds raised by k. Every other flow sees plain RED.',
    formula: String.raw`\begin{gathered}
T_f = \tfrac{H_r - H_d}{n},\quad T_i = H_{ri} \\
\text{slow } (H_{ri} < \eta,\ H_{di} = 0)\text{: RED, thresholds} + k \\
\text{fast } (T_i > (1 + \alpha)\,T_f)\text{:} \\
\text{drop if } \tfrac{H_{di}}{H_{ri}} > (1 + \beta)\,\tfrac{H_d}{H_r}, \\
\text{else RED with } \min\!\left(1,\ \maxp\,\tfrac{T_i}{T_f}\right) \\
\text{others: RED}
\end{gathered}`,
    rule: [
      'H_ri, H_di = flow i’s packets, drops',
      'H_r, H_d = list totals; n = flows',
      'T_f = (H_r − H_d)/n,  T_i = H_ri',
      'slow (H_ri < η and H_di = 0):',
      '  RED with min_th + k, max_th + k',
      'fast (T_i > (1 + α)·T_f):',
      '  H_di/H_ri > (1 + β)·H_d/H_r: drop',
      '  else RED, max_p·T_i/T_f (at most 1)',
      'otherwise: RED',
      'not in the paper, 0 turns each off:',
      '  window: halve all counters',
      '  idle_ms: forget a silent flow',
      '  both off, counters grow for ever:',
      '  long TCP flows stay "fast" and',
      '  starve, so both are on by default',
    ],
    tryThis: [
      {
        preset: 'red-vs-droptail-cbr',
        text: 'Load it and pick SFRED: the "unresponsive fast flows" probe shows the CBR flow, and on Goodput per flow it is cut off completely while the TCP flows share the link.',
      },
    ],
  },
  choke: {
    what: 'CHOKe is RED plus one comparison per arrival: once the average queue passes min_th it draws a random packet from the queue, and if that packet belongs to the arriving packet’s flow it drops both. A flow that fills much of the buffer is likely to be matched, so it is punished in proportion to its share without any per-flow state. Arrivals that do not match get RED’s usual treatment.',
    formula: String.raw`\begin{gathered}
\avg > \minth:\ c = \text{a random queued packet} \\
\mathit{flow}(c) = \mathit{flow}(\text{arrival}):\ \text{drop both} \\
\text{otherwise RED: drop with } p_a
\end{gathered}`,
    rule: [
      'avg ≤ min_th: admit',
      'else draw m = candidates queued packets:',
      '  same flow as the arrival:',
      '    drop that packet and the arrival',
      '  no match: RED (p_a between the',
      '    thresholds, drop above max_th)',
    ],
    tryThis: [
      {
        preset: 'red-vs-droptail-cbr',
        text: 'Load it and pick CHOKe: the CBR flow still gets about 490 kb/s. Set candidates to 4 and it falls to about 400 kb/s; the "share of compared arrivals matched" probe shows how often the draw hits.',
      },
    ],
  },
  drr: {
    what: 'DRR gives every flow its own FIFO and serves the backlogged flows in turn: each turn a flow may send up to a quantum of bytes plus what it left unused before (its deficit). Every backlogged flow thus gets the same number of bytes per round whatever its packet sizes, so an unresponsive flow cannot take more than its share of the link. When the shared buffer is full, the head packet of the longest flow queue is dropped, so a flow that floods the buffer loses its own packets.',
    formula: String.raw`\begin{gathered}
\text{flow } i\text{'s turn: } \mathit{DC}_i \leftarrow \mathit{DC}_i + Q \\
\text{while } \ell \le \mathit{DC}_i:\ \text{send},\ \mathit{DC}_i \leftarrow \mathit{DC}_i - \ell \\
\text{overflow: drop the head of } \arg\max_j q_j
\end{gathered}`,
    rule: [
      'turn of flow i: DC_i ← DC_i + Q',
      '  while head packet ≤ DC_i:',
      '    send it, DC_i ← DC_i − size',
      '  queue empty: DC_i ← 0, leave list',
      '  else: go to the tail of the list',
      'buffer over its limit:',
      '  drop the head of the longest queue',
    ],
    tryThis: [
      {
        preset: 'red-vs-droptail-cbr',
        text: 'Load it and pick DRR: the CBR flow gets about 30 kb/s, the same as each TCP flow. But DRR drops only on overflow, so the buffer stays full (about 99 packets, some 670 ms of delay).',
      },
      {
        preset: 'bare-12-tcp-8-cbr',
        text: 'Pick DRR: every flow, CBR or TCP, gets almost exactly 1 Mb/s, with about 320 packets queued where BARE keeps about 78.',
      },
    ],
  },
  bare: {
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
  },
  afpft: {
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
  },
  csfq: {
    what: 'CSFQ approximates fair queueing without per-flow state in the core: the first router a flow meets (the edge) estimates its rate and writes it into each packet as a label. Every router estimates the fair share α, the rate that just fills its link, and drops a packet labelled r with probability 1 − α/r, so each flow leaves with at most α. Packets that pass carry the label min(r, α) to the next router.',
    formula: String.raw`\begin{aligned}
r_i &\leftarrow \left(1 - e^{-T/K}\right)\frac{\ell}{T} + e^{-T/K}\,r_i \quad \text{(edge)} \\
p &= \max\!\left(0,\ 1 - \frac{\alpha}{r}\right),\quad r \leftarrow \min(r, \alpha)
\end{aligned}`,
    rule: [
      'edge, per flow (T = gap, K = k_ms):',
      '  r ← (1 − e^(−T/K))·len/T + e^(−T/K)·r',
      '  label = r',
      'every router:',
      '  p = max(0, 1 − α/label)',
      '  passed and p > 0: label ← α',
      'α: A ≥ C, every K_c: α ← α·C/F',
      '   A < C for K_c: α ← largest label',
      '   each overflow: α ← 0.99·α',
      'A, F = arrival, accepted rate; C = link',
    ],
    tryThis: [
      {
        preset: 'csfq-20-cbr-water-filling',
        text: 'CBR flows at 0.5, 1, 1.5 and 2 Mb/s on 20 Mb/s: the small ones keep their rate and the 1.5 and 2 Mb/s flows are cut to about 1.2 Mb/s each (max-min fair share 1.25 Mb/s); the α probe shows the share.',
      },
      {
        preset: 'red-vs-droptail-cbr',
        text: 'Pick CSFQ: the 1 Mb/s CBR flow gets about 140 kb/s instead of about 720 kb/s under RED.',
      },
    ],
  },
  rqrd: {
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
  },
  codel: {
    what: 'CoDel measures how long each packet has waited in the queue (its sojourn time) as it leaves. Once that delay has stayed above target for a whole interval, it drops the packet at the head and keeps dropping at shorter and shorter intervals until the delay falls below target. It reacts to how long packets wait rather than to how many are queued, so short bursts pass and a standing queue is removed.',
    formula: String.raw`\begin{gathered}
\mathit{sojourn} \ge \mathit{target} \text{ for an } \mathit{interval}\text{:} \\
\text{drop the head},\ \mathit{count} \leftarrow 1 \\
\text{at each } \mathit{drop\_next}\text{: drop},\ \mathit{count} \mathrel{+}= 1, \\
\mathit{drop\_next} \leftarrow \mathit{drop\_next} + \frac{\mathit{interval}}{\sqrt{\mathit{count}}}
\end{gathered}`,
    rule: [
      'sojourn = now − arrival time, at dequeue',
      'sojourn < target, or ≤ 1 MTU queued:',
      '  leave the dropping state',
      'above target for a whole interval:',
      '  drop the head, count = 1,',
      '  enter the dropping state',
      'dropping, at each drop_next:',
      '  drop the head, count += 1',
      '  drop_next += interval/√count',
      'count resumes from the last episode',
      '  if it ended < 16 intervals ago',
    ],
    tryThis: [
      {
        preset: 'codel-bufferbloat',
        text: 'The bufferbloat preset with CoDel: the queue averages about 11 packets (9 ms) instead of about 840 (700 ms) under Drop Tail, with almost the same goodput. Watch the "dropping state" probe switch on and off.',
      },
    ],
  },
  pie: {
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
  },
  dualpi2: {
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
      '    overload (p′ > 1/k): drop with p_C instead',
      '  C packet: with p_C = p′², mark if ECT(0), else drop',
    ],
    tryThis: [
      {
        preset: 'pie-bufferbloat',
        text: 'Load the PIE bufferbloat preset and switch the scheme to DualPI2: all ten flows are classic, so only the C queue is used and p′² behaves like PIE, holding the delay near the 15 ms target (about 15.5 ms on average, 18 packets).',
      },
      {
        text: 'Add two DCTCP flows with ECN set to ECT(1) beside two CUBIC flows (10 Mb/s, 10 ms bottleneck delay): the DCTCP packets wait about 1 ms in the L queue while the CUBIC packets wait about 15 ms.',
      },
    ],
  },
  fq_codel: {
    what: 'FQ-CoDel hashes each flow into its own queue, serves the queues round robin a quantum of bytes at a time, and runs CoDel separately on each queue. A queue that becomes active joins a “new flows” list that is served first, so a flow sending less than a quantum per round (a ping, a game, DNS) hardly waits. When the buffer is full it drops from the queue holding the most bytes.',
    formula: String.raw`\begin{gathered}
i = h(\text{flow}) \bmod \mathit{flows} \\
\mathit{deficit}_i \le 0:\ \mathit{deficit}_i \mathrel{+}= \mathit{quantum}, \\
i \to \text{tail of old\_flows} \\
\text{else send through CoDel}_i,\ \mathit{deficit}_i \mathrel{-}= \ell
\end{gathered}`,
    rule: [
      'enqueue: queue = hash(flow) mod flows',
      '  inactive queue: to new_flows,',
      '    deficit = quantum',
      '  buffer full: drop the head of',
      '    the queue with the most bytes',
      'dequeue: head queue of new_flows,',
      '  else of old_flows:',
      '  deficit ≤ 0: deficit += quantum,',
      '    move it to the tail of old_flows',
      '  else send through its CoDel,',
      '    deficit −= size',
    ],
    tryThis: [
      {
        preset: 'fq-codel-sparse-flow',
        text: 'A 64 kb/s ping beside ten bulk TCP flows: the mean delay is about 9 ms, and the ping’s packets, alone in their queue, overtake the bulk queues (about 0 ms of waiting; with plain CoDel they wait about 9 ms like the rest).',
      },
      {
        preset: 'red-vs-droptail-cbr',
        text: 'Pick FQ-CoDel: the 1 Mb/s CBR flow gets about 30 kb/s, the same as each TCP flow.',
      },
    ],
  },
  blue: {
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
  },
};
