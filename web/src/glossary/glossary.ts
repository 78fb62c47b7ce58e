// Plain-language meanings of the words the page uses. Every term the page
// shows (summary labels, lesson text) links here, so a student who meets
// "p99" or "Jain's index" is one tap away from what it means.

export interface GlossaryEntry {
  /** Names the entry in links (`[[text|id]]` in lesson text). */
  id: string;
  term: string;
  /** One or two sentences, no jargon that is not itself in the glossary. */
  meaning: string;
  /** Where the idea comes from, if it has a source. */
  source?: string;
}

export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    id: 'aqm',
    term: 'AQM (active queue management)',
    meaning:
      'A router rule that drops or marks some packets before its buffer is full, to tell senders to slow down early and keep the queue (and so the delay) short. Every scheme here except Drop Tail is one.',
  },
  {
    id: 'droptail',
    term: 'Drop Tail',
    meaning:
      'The simplest router queue: accept every packet until the buffer is full, then drop whatever arrives. It says nothing to senders until it is too late.',
  },
  {
    id: 'bufferbloat',
    term: 'Bufferbloat',
    meaning:
      'Delay caused by a router buffer that is too big: TCP fills whatever buffer it finds, so a large one adds waiting time for every packet without making the link any faster.',
  },
  {
    id: 'capacity',
    term: 'Link capacity',
    meaning:
      'How many bits per second a link can send right now. On a fixed link it is the link’s rate; on a link that follows a rate trace it changes over time, and the queue and goodput charts draw it as a dashed line.',
  },
  {
    id: 'rate-trace',
    term: 'Rate trace',
    meaning:
      'A recording or recipe of how a link’s capacity changes over time, as on Wi-Fi, LTE or satellite links: a list of moments at which one full-size packet may leave (mahimahi’s format), a step, an outage or a random walk.',
    source: 'Netravali et al., “Mahimahi: accurate record-and-replay for HTTP”, USENIX ATC 2015',
  },
  {
    id: 'outage',
    term: 'Outage',
    meaning:
      'A time during which a link sends nothing at all. Packets keep arriving and wait in the queue, so the queue and its delay grow until the link comes back, and the router’s scheme decides what to drop meanwhile.',
  },
  {
    id: 'queueing-delay',
    term: 'Queueing delay',
    meaning: 'How long a packet waits in the router’s queue before it is sent. A long queue on a slow link means a long wait.',
  },
  {
    id: 'goodput',
    term: 'Goodput',
    meaning:
      'Useful data delivered per second: bits that reached the receiver for the first time, not counting headers-only packets or data sent again after a loss. Shown in Mb/s (millions of bits per second). The receiver hands data over in order, so after a lost packet is repaired it delivers everything that arrived behind it at once: over a short interval goodput can then exceed the link’s rate (the goodput chart cuts such peaks off and says so).',
  },
  {
    id: 'utilisation',
    term: 'Utilisation',
    meaning: 'The share of time the bottleneck link is busy sending. 100 % means it never sat idle during the measurement window.',
  },
  {
    id: 'p99',
    term: 'p99 (99th percentile)',
    meaning:
      'The value that 99 % of the measurements stay below: “p99 delay 40 ms” means only 1 packet in 100 waited longer than 40 ms. It shows the bad cases an average hides.',
  },
  {
    id: 'percentile',
    term: 'Percentile',
    meaning:
      'The value a given share of the measurements stay at or below: the 50th percentile (p50, the median) is the middle one, p90 the one 9 in 10 stay below, p99.9 the one only 1 in 1 000 exceed. The page reads them from histograms, each within about 1 % of the exact value.',
  },
  {
    id: 'cdf',
    term: 'CDF (cumulative distribution function)',
    meaning:
      'A curve that shows, for every delay on the x axis, the share of packets that waited at most that long. It rises from 0 to 100 %; where it crosses 50 % is the median, and a long flat tail at the top means a few packets waited far longer than the rest.',
  },
  {
    id: 'latency-under-load',
    term: 'Latency under load',
    meaning:
      'The round-trip time a small, regular probe (a ping) sees while bulk transfers fill the link. An idle link shows only the path’s own delay; a bloated buffer adds the whole standing queue, which is what makes calls and games stutter during an upload.',
    source: 'Flent’s RRUL test (Høiland-Jørgensen et al.)',
  },
  {
    id: 'jain',
    term: 'Jain’s fairness index',
    meaning:
      'One number for how evenly flows share the link: (Σx)² / (n·Σx²) over the flows’ goodputs x. It is 1 when every flow gets the same and 1/n when one flow of n gets everything. It counts flows, not hosts: under CAKE’s host isolation a host with one flow and a host with eight sharing the link equally give a low index (about 0.4), which is the result the scheme aims for.',
    source: 'Jain, Chiu & Hawe 1984',
  },
  {
    id: 'cov',
    term: 'CoV (coefficient of variation)',
    meaning:
      'How much a flow’s goodput wobbles over time: its standard deviation divided by its mean. 0 is perfectly steady; 1 means the swings are as large as the average.',
    source: 'Cho & Cho 2002 eq. 12',
  },
  {
    id: 'fair-share',
    term: 'Fair share (max-min)',
    meaning:
      'What each flow would get if the link were split as evenly as possible: flows that want less than an equal split get what they want, and the rest is divided equally among the others. The line is per flow: under a scheme that shares between hosts first (CAKE with host isolation), the intended split is per host instead, so a host with many flows shows each below the line and that is the scheme working (see host isolation).',
  },
  {
    id: 'offered-load',
    term: 'Offered load (ρ = λ/μ)',
    meaning:
      'How much traffic arrives compared with what the link can send: the arrival rate λ divided by the service rate μ. Below 1 the queue can keep up on average; above 1 it must grow or drop.',
  },
  {
    id: 'markov-model',
    term: 'Markov model',
    meaning:
      'A queue described by its possible lengths and the chances of moving between them, one packet arriving or leaving at a time. From it, theory predicts how often a scheme such as RED drops at a given offered load; the chart compares that prediction with the run.',
  },
  {
    id: 'mathis-padhye',
    term: 'Mathis and Padhye models',
    meaning:
      'Formulas for the rate a TCP flow gets from its packet size, round-trip time and loss rate. Mathis et al. (1997): rate ≈ (segment / RTT) · √(3 / (2p)) for loss rate p. Padhye et al. (1998) adds timeouts. Both say a flow with twice the RTT gets half the rate.',
  },
  {
    id: 'ecn',
    term: 'ECN (Explicit Congestion Notification)',
    meaning:
      'A bit in the packet header that a router sets instead of dropping the packet. The receiver reports the mark back and the sender slows down just as if the packet were lost, but nothing has to be sent again.',
    source: 'RFC 3168',
  },
  {
    id: 'ect0',
    term: 'ECT(0)',
    meaning:
      'The value of the two ECN bits by which a sender says "I understand marks" in the classic way: it slows down as much for a mark as for a lost packet.',
    source: 'RFC 3168',
  },
  {
    id: 'ect1',
    term: 'ECT(1)',
    meaning:
      'The other "I understand marks" value, which L4S senders use: they expect many small marks and slow down a little for each, so a router can keep their queue very short.',
    source: 'RFC 9331',
  },
  {
    id: 'ce',
    term: 'CE (Congestion Experienced)',
    meaning: 'The value a router writes into the ECN bits of a packet it marks, instead of dropping it.',
    source: 'RFC 3168',
  },
  {
    id: 'scalable-cc',
    term: 'Scalable and classic congestion control (L4S)',
    meaning:
      'A classic sender (Reno, CUBIC) halves or nearly halves its window for one mark or loss per round trip, so its queue must swing widely to keep the link busy. A scalable sender (DCTCP, TCP Prague) takes a small cut for each mark, in proportion to the share of its packets marked, and expects a couple of marks every round trip whatever its rate; its queue can stay near a millisecond. L4S (Low Latency, Low Loss, Scalable throughput) gives such senders their own queue.',
    source: 'RFC 9330; RFC 8257 (DCTCP)',
  },
  {
    id: 'coupling',
    term: 'Coupling (DualPI2)',
    meaning:
      'How the two queues of DualPI2 share one congestion signal so that neither kind of flow starves the other: a PI controller on the classic queue sets p′; classic packets are dropped or marked with p′², scalable ones marked with k·p′ (k = 2 by default). Because a classic flow’s rate goes as 1/√p and a scalable one’s as 1/p, the square and the factor k make their rates about equal at equal round-trip times.',
    source: 'RFC 9332 §2.1',
  },
  {
    id: 'dual-queue',
    term: 'L queue and C queue (DualPI2)',
    meaning:
      'DualPI2 keeps two queues in one buffer: the L queue for L4S packets (ECT(1) or CE) and the C queue for classic ones (ECT(0) or no ECN). The L queue is served first, so its packets wait about a millisecond; a scheduler still gives the C queue its turn. Each queue has its own delay on the queue chart.',
    source: 'RFC 9332 §2.5.1',
  },
  {
    id: 'base-probability',
    term: 'Base probability p′ (DualPI2)',
    meaning:
      'The number DualPI2’s PI controller raises while the queueing delay is above target and lowers while it is below. Classic packets are dropped or marked with p_C = p′², L4S packets marked with p_L, the larger of k·p′ (capped at 1) and the step: 1 once an L4S packet has waited past the step threshold. Above p′ = 1/k the L queue is overloaded and its packets are dropped with p_C instead.',
    source: 'RFC 9332 §2.4, App. A',
  },
  {
    id: 'time-shifted-fifo',
    term: 'Time-shifted FIFO (DualPI2 scheduler)',
    meaning:
      'A way to choose between the L and the C queue: send the packet that arrived first, but count a classic packet as if it had arrived tshift later. An L4S packet goes first unless the classic one has waited tshift longer, so the classic queue never waits much more than tshift beyond the L queue. The other choice, and Linux’s only one, is a weighted round robin that gives the classic queue a protected share of the link.',
    source: 'RFC 9332 §4.2.2',
  },
  {
    id: 'pacing',
    term: 'Pacing',
    meaning:
      'Sending a window of packets spread evenly over the round trip instead of in one burst, so they arrive at the router one by one rather than all at once.',
  },
  {
    id: 'mark',
    term: 'Mark',
    meaning: 'A packet that was forwarded with its ECN congestion bit set, instead of being dropped.',
  },
  {
    id: 'rtt',
    term: 'RTT (round-trip time)',
    meaning: 'The time from sending a packet until its acknowledgement comes back: the links’ delays both ways plus any time spent waiting in queues.',
  },
  {
    id: 'tcp',
    term: 'TCP',
    meaning:
      'The transport protocol of most Internet traffic. A TCP sender keeps a window of packets in flight, widens it by about one packet per round trip, and halves it when a packet is lost (or marked).',
  },
  {
    id: 'global-sync',
    term: 'Global synchronisation',
    meaning:
      'Many TCP flows losing packets at the same moment (typically when a Drop Tail buffer overflows) and all slowing down together, then speeding up together: the link swings between idle and overloaded.',
    source: 'Floyd & Jacobson 1993 §1',
  },
  {
    id: 'phase-effects',
    term: 'Phase effects (phase locking)',
    meaning:
      'With Drop Tail, which flow loses a packet depends on exactly when its packets arrive relative to the moments the buffer is full. Flows whose timing happens to line up badly lose far more, however fair they are otherwise.',
    source: 'Floyd & Jacobson 1992, on traffic phase effects',
  },
  {
    id: 'access-jitter',
    term: 'Access jitter',
    meaning:
      'A small random extra delay, different for every packet, on the link between a sender and the router. Real networks always have some; a simulation without it can keep flows in rhythms that no real network would hold.',
  },
  {
    id: 'cwnd',
    term: 'Congestion window',
    meaning:
      'How many packets a TCP sender may have sent but not yet had acknowledged. TCP grows it by about one packet per round trip and halves it when a packet is lost (or marked), so its sawtooth shows each flow reacting to the queue.',
    source: 'RFC 5681',
  },
  {
    id: 'sparse-flow',
    term: 'Sparse flow',
    meaning:
      'A flow that sends so little that its queue in a flow-queuing scheme empties between its packets, such as a ping or a voice call. FQ-CoDel serves a queue that has just become active before the busy ones, so a sparse flow waits only for the packet already on the wire.',
    source: 'RFC 8290 §4.1',
  },
  {
    id: 'codel-interval',
    term: 'CoDel target and interval',
    meaning:
      'CoDel drops only when every packet has waited longer than the target (5 ms by default) for at least one interval (100 ms). The interval should be about a round-trip time: shorter, and CoDel drops before senders could have reacted; longer, and the queue stays high for longer.',
    source: 'RFC 8289 §4.2–4.3',
  },
  {
    id: 'unresponsive-flow',
    term: 'Unresponsive flow',
    meaning: 'Traffic that does not slow down when its packets are dropped, such as a constant-bit-rate video stream. It keeps what polite TCP flows give up.',
  },
  {
    id: 'cbr',
    term: 'CBR (constant bit rate)',
    meaning: 'A sender that sends packets at a fixed rate whatever happens to them: the simplest unresponsive flow.',
  },
  {
    id: 'red-average',
    term: 'Average queue (RED’s avg, weight w_q)',
    meaning:
      'RED decides on a smoothed queue length, not the queue right now: avg ← (1 − w_q)·avg + w_q·q at each arrival. A small w_q (0.002) lets short bursts through while a lasting queue still raises avg.',
    source: 'Floyd & Jacobson 1993 §4',
  },
  {
    id: 'max_p',
    term: 'max_p, min_th, max_th and p_b',
    meaning:
      'RED’s drop curve. Below min_th RED never drops early; between min_th and max_th the drop probability p_b rises in a straight line from 0 to max_p; above max_th it drops every packet (or, in gentle mode, rises on to 1 at twice max_th).',
    source: 'Floyd & Jacobson 1993 §4',
  },
  {
    id: 'drop-reasons',
    term: 'Early, forced and overflow drops',
    meaning:
      'Early: the scheme chose to drop although there was room (a warning to the sender). Forced: the scheme’s rule says every packet must go (e.g. RED above max_th). Overflow: the buffer was simply full.',
  },
  {
    id: 'measurement-window',
    term: 'Measurement window',
    meaning:
      'The part of the run the summary covers: from measure_from_s to the end. The first seconds, while flows start and queues fill, are left out so they do not blur the steady state.',
  },
  {
    id: 'fair-queueing',
    term: 'Fair queueing',
    meaning:
      'Giving each flow its own queue and serving the queues in turn (DRR, FQ-CoDel), or dropping each flow by how far it exceeds its fair share (CSFQ, AFpFT): a flow that sends too much only hurts itself.',
  },
  {
    id: 'flow-isolation',
    term: 'Flow isolation',
    meaning:
      'Keeping each flow’s packets in a queue of its own, so that a flow that sends too much fills only its own queue: the others keep their share of the link and their short wait. CAKE goes one step further and isolates hosts too, so a computer with many flows gets no more than one with a single flow.',
    source: 'Høiland-Jørgensen, Täht & Morton, “Piece of CAKE”, IEEE LANMAN 2018, §III',
  },
  {
    id: 'host-isolation',
    term: 'Host isolation (one host)',
    meaning:
      'Sharing the link between computers before sharing it between their flows, as CAKE’s triple isolation does: each host’s bulk flows together earn what one flow of another host earns, so opening eight connections does not buy eight shares. In a scenario, a flow group with “one host” set runs all its flows from one sender to one receiver; without it every flow has a host of its own. A flow that stays below its share (its queue keeps emptying) is served as a new, sparse flow and is not counted against its host.',
    source: 'Høiland-Jørgensen, Täht & Morton, “Piece of CAKE”, IEEE LANMAN 2018, §III',
  },
  {
    id: 'per-group-view',
    term: 'Per-group view (many flows)',
    meaning:
      'With more than 200 flows, a line or bar per flow could not be told apart, so the page shows each flow group as a whole: goodput over time is the group’s total, and goodput per flow becomes a sorted curve per group. The time series the page keeps (and exports) then has, for each group and sample, the sum, mean, minimum and maximum of its flows’ goodput and window, and the mean, minimum and maximum of their round-trip times, instead of a column per flow. The summary still covers every flow.',
  },
  {
    id: 'sorted-goodput',
    term: 'Sorted goodput curve',
    meaning:
      'Every flow’s goodput over the measurement window, sorted from lowest to highest and drawn as one curve per group: the bars of all the flows, side by side. The height at 10 % is what the slowest tenth of the flows stayed below. A flat curve at the fair share means the flows shared equally; a steep one means some got far more than others.',
  },
  {
    id: 'bdp',
    term: 'BDP (bandwidth-delay product)',
    meaning:
      'A link’s rate times the round-trip time: how much data is in flight when a sender keeps the link exactly busy with no queue. 20 Mb/s over a 30 ms round trip is 75 kB, about 50 full-size packets. A buffer is called deep when it holds many BDPs.',
  },
  {
    id: 'delivery-rate',
    term: 'Delivery rate',
    meaning:
      'How fast a sender’s data is getting through, as it measures it from acknowledgements: the bytes acknowledged over the time they took. The largest delivery rate a flow sees over a few round trips estimates the bottleneck’s rate; BBR paces by it.',
    source: 'Cheng, Cardwell, Hassas Yeganeh & Jacobson, draft-cheng-iccrg-delivery-rate-estimation-00, 2017',
  },
  {
    id: 'bbr',
    term: 'BBR',
    meaning:
      'A TCP congestion control that models the path instead of reacting to losses: it estimates the bottleneck’s rate (the largest recent delivery rate) and the round trip without a queue (the smallest recent RTT), sends paced at that rate and keeps about two BDPs in flight. Every 10 s it briefly cuts its window to four packets to measure the round trip afresh.',
    source: 'Cardwell, Cheng, Gunn, Hassas Yeganeh & Jacobson, “BBR: congestion-based congestion control”, ACM Queue 2016',
  },
  {
    id: 'sojourn-time',
    term: 'Sojourn time',
    meaning:
      'The time one packet spent in a queue, from arriving to leaving: its queueing delay at that hop. The summary gives its percentiles per hop and per flow group; CoDel and PIE decide by it.',
  },
  {
    id: 'box-plot',
    term: 'Box plot',
    meaning:
      'A distribution drawn in one row on a time axis: the box spans the 25th to the 75th percentile with a line at the median, the whiskers reach the 10th and 90th, and a dot marks the 99th. A long right whisker or a far dot is a long tail of delays that the median hides.',
  },
  {
    id: 'decision-inspector',
    term: 'Drop-and-mark inspector',
    meaning:
      'While a run is paused, each drop and ECN mark at the bottleneck is a small triangle above the queue and drop-rate charts. Picking one (a click, the [ and ] keys, or the arrow keys on the focused strip) explains that decision in the scheme’s own terms and numbers as the engine recorded them at that instant, and shows it on the drop-probability curve where the scheme has one. The page keeps only a run’s newest decisions: every drop and mark, and one pass in 100. Unticking “record decisions” stops the engine noting them; the run itself does not change.',
  },
  {
    id: 'hystart',
    term: 'Hybrid slow start (HyStart)',
    meaning:
      'A way for CUBIC to leave slow start before the first loss. From a window of 16 packets on it watches each round trip: when the acknowledgements of a round come back as one long train, or the round’s smallest RTT rises clearly above the path’s minimum (by an eighth of it, 4 to 16 ms, in Linux; by doubling in ns-3), the window already fills the path and doubling stops. Linux and ns-3 run it by default (“linux”, “ns3”). RFC 9406’s HyStart++ (“hystart++”) instead grows a quarter as fast for five rounds before it ends slow start, and goes back to doubling if the delay falls again; “off” doubles until a packet is lost.',
    source: 'Ha & Rhee, “Taming the elephants: new TCP slow start”, Computer Networks 2011; Balasubramanian, Huang & Olson, RFC 9406 (HyStart++), 2023',
  },
  {
    id: 'cubic-rtt',
    term: 'CUBIC’s look-ahead RTT',
    meaning:
      'CUBIC grows its window towards where its cubic curve will be one round trip from now. Linux and ns-3 take that round trip as the smallest RTT measured (“min”), so the target does not move with the queue the flow itself builds; RFC 9438 §4.2 words it as the smoothed RTT (“srtt”), which looks further ahead, and so grows faster, when the queue is long.',
    source: 'Xu, Ha, Rhee, Goel & Eggert, RFC 9438 (CUBIC), 2023, §4.2',
  },
];

const BY_ID = new Map(GLOSSARY.map((entry) => [entry.id, entry]));

/** Lower-case ids and terms (without their parenthesised expansions) map to an entry, so lesson text can write [[ECN]] or [[goodput]]. */
const BY_NAME = new Map(
  GLOSSARY.flatMap((entry) => [
    [entry.id.toLowerCase(), entry] as const,
    [entry.term.toLowerCase(), entry] as const,
    [entry.term.replace(/\s*\(.*\)$/, '').toLowerCase(), entry] as const,
  ]),
);

export function glossaryEntry(idOrName: string): GlossaryEntry | undefined {
  return BY_ID.get(idOrName) ?? BY_NAME.get(idOrName.toLowerCase());
}
