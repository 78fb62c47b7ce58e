// Presets are the scenario files in the repository's scenarios/ folder, the
// same files the CLI runs. Each has a plain sentence for newcomers and a
// caption with the detail; a file without either is still offered, under its
// own name.

import type { Scenario } from './types';

export interface Preset {
  id: string;
  title: string;
  /** What the experiment shows, in words a newcomer knows. */
  plain: string;
  /** The detail: which paper, figure and parameters, and what to try. */
  caption: string;
  scenario: Scenario;
}

const files = import.meta.glob<Scenario>('../../../scenarios/*.json', { eager: true, import: 'default' });

/** Why each preset is worth running; the order here is the gallery's order. */
const CAPTIONS: Record<string, string> = {
  'red-vs-droptail-cbr':
    'An unresponsive 1 Mb/s CBR flow shares a 1 Mb/s link with 32 TCP flows. Neither RED nor Drop Tail knows about flows, so the CBR flow takes most of the link while the TCP flows back off: switch to FRED, CSFQ or AFpFT and compare.',
  bufferbloat:
    'Ten TCP flows fill a 1000-packet Drop Tail buffer: the link stays busy but every packet waits a second in the queue. Try RED or a smaller buffer.',
  'tcp-sync-droptail':
    'Four TCP flows with equal round-trip times lose packets together when the Drop Tail buffer overflows, and back off together: watch the goodput lines rise and fall in step.',
  'droptail-phase-locking':
    "Ten TCP flows with round-trip times from 44 to 142 ms and perfectly regular timing: Drop Tail's overflows keep hitting the same flows (Floyd & Jacobson 1991, traffic phase effects). One flow takes almost half the link; Jain's index is 0.37.",
  'droptail-access-jitter':
    "The same ten flows with up to 1 ms of random delay on each access link: the phase locking is gone and Jain's index rises to 0.95 (ns-3 with real-world timing noise: 0.94), with the same 9.6 Mb/s of goodput.",
  'two-way-traffic':
    "The same link with four TCP flows each way: each direction's ACKs queue behind the other's data, bunch up and release bursts (ACK compression). Each direction gets about 1.55 instead of 1.9 Mb/s and its goodput swings far more. RED and CoDel barely help; FQ-CoDel gives the ACKs queues of their own and brings both directions back to 1.85 Mb/s.",
  'red-ten-flows': 'Ten TCP flows through RED (gentle mode). Drag max_p or max_th while it runs and watch the average queue settle at a new level.',
  'ns3-red-dumbbell':
    "The dumbbell of an ns-3 comparison: 10 NewReno flows, RED with min_th 5, max_th 15, max_p 0.1. Toggle wait: on (ns-2 and ns-3's count rule) gives about 8.7 Mb/s with a mean queue of 7 packets, off (Floyd & Jacobson's) about 8.0 Mb/s with 5.6.",
  'tcp32-cbr1':
    'The AFpFT paper (2011) §3B as it sets it (100 kB buffer): RED lets the CBR take over 70% of the link. Switch scheme (each with its default parameters): FRED still lets the CBR take about 6× its 30 kb/s fair share, SFRED cuts it off, DRR and AFpFT hold it at its fair share, CSFQ at about 4× (the paper reports "more than 3×").',
  'web-sessions-with-cbr':
    'The AFpFT paper (2011) Table III: web transfers (25 sessions/s, Pareto sizes) beside a 5 Mb/s CBR. Under RED transfers take about 350 ms on average; under FRED, CSFQ or AFpFT they take 90–175 ms. Watch the transfer times in the summary.',
  'bare-12-tcp-8-cbr':
    'Cho & Cho 2002 Fig. 9: 8 CBR flows at 3× their fair share among 12 TCP flows. BARE reins the CBR flows in within seconds: compare their bars with the fair-share line, then try RED.',
  'bare-200-tcp':
    'Cho & Cho 2002 §3.5: 200 TCP flows. BARE keeps every flow close to its fair share and the queue bounded; toggle fair_drop and watch the queue grow.',
  'bare-weighted-tcp': 'Weighted BARE: four TCP groups with weights 1, 2, 3 and 4 get goodput in proportion to their weights.',
  'afpft-20-cbr':
    'The AFpFT paper (2011) Fig. 2: CBR flows at 0.5, 1, 1.5 and 2 Mb/s on 20 Mb/s. AFpFT water-fills: the lower two groups keep their rate, the upper two get 1.25 Mb/s each. Turn finish_correction off to see Fig. 2a.',
  'afpft-32-cbr': 'The AFpFT paper (2011) Fig. 6: flow i sends i·C/32. AFpFT gives every flow C/32; try RED to see shares follow the input rates instead.',
  'afpft-parking-lot':
    'The AFpFT paper (2011) §3D: one CBR flow crosses 3 congested links. AFpFT keeps it at its 0.91 Mb/s max-min share; under RED or Drop Tail every hop cuts it again.',
  'csfq-20-cbr-water-filling': "The same water-filling under CSFQ: edge labels carry each flow's rate and the core drops with probability 1 − α/label.",
  'csfq-32-cbr':
    "CSFQ's own benchmark: flow i sends i·C/32 and every flow leaves with about C/32 (Karam & Tobagi's (2000) fairness measure f stays below 0.01).",
  'rqrd-cbr-among-tcp':
    'Karam & Tobagi 2000 Fig. 8: one CBR at the link rate among 20 TCP flows. RQRD protects the TCP flows as CSFQ does; Drop Tail starves them.',
  'rqrd-drop-precedence':
    'Karam & Tobagi 2000: an 8 Mb/s CBR sent at drop precedence 1 (loss-intolerant) among TCP flows. RQRD drops it only on overflow and the TCP flows share what is left; set its precedence to 0 and it loses most of its packets.',
  'dsred-three-ftp': 'Zheng & Atiquzzaman 2000 §3.1: three FTP sources under DSRED (K_l 6, K_h 20). Move gamma and watch the drop curve bend at K_m.',
  'nlred-20-tcp':
    "Zhou, Yeung & Li 2009 §4: 20 TCP flows under NLRED's quadratic drop function; the average queue sits between the thresholds. Compare its drop curve with RED's straight line.",
  'ared-5-to-100-flows':
    "Adaptive RED: 5 TCP flows, 95 more join at 30 s. Watch max_p in the scheme's state adapt so that the average queue stays in its target band.",
  'rem-40-tcp': 'REM with 40 TCP flows: the price rises with the load while the queue stays near b* = 20 packets.',
  'codel-bufferbloat': 'The bufferbloat setting under CoDel: queueing delay stays near its 5 ms target instead of a second. Switch to Drop Tail to compare.',
  'codel-cellular':
    'A cellular-like link: its capacity wanders between 2 and 30 Mb/s (a random walk in steps of 20 ms, the dashed line) under five CUBIC flows with a 1000-packet buffer. CoDel keeps the queueing delay near its 5 ms target as the link slows and speeds up (mean 17 ms, 99th percentile 118 ms, 9.5 Mb/s of goodput); switch to Drop Tail and every slowdown becomes a long wait (mean 844 ms, 99th percentile 2.5 s, for 11.5 Mb/s).',
  'bufferbloat-link-halves':
    'Five CUBIC flows fill a 1000-packet Drop Tail buffer on 20 Mb/s; at 30 s the link halves to 10 Mb/s (a step trace, the dashed line). The same full buffer now drains at half the rate, so every packet waits twice as long: about 0.52 s before the step, 1.06 s after. Compare with CoDel: its mean delay is 14 ms over the run, at either rate.',
  'pie-bufferbloat': 'The bufferbloat setting under PIE: the queueing delay converges to the 15 ms target. Drag target and watch it follow.',
  'fq-codel-sparse-flow':
    'FQ-CoDel with a 64 kb/s "ping" beside 10 bulk TCP flows: the ping overtakes the bulk queues and sees almost no delay, while the bulk flows sit at CoDel\'s target.',
  'latency-under-load':
    "Flent's RRUL idea in one click: a ping every 100 ms beside four CUBIC uploads through 500 packets of Drop Tail. The ping's RTT climbs from its 50 ms base to over 400 ms once the buffer fills (median 417 ms); the delay CDF shows its whole distribution. Under FQ-CoDel its median is 51 ms, under CoDel 57 ms, at the same goodput. Switch to FQ-CoDel or CoDel (or open compare mode) and watch the ping's curve move left.",
  'tfrc-tcp-red-smoothness':
    "Cho & Cho 2002 §4.4: 40 TFRC and 60 TCP flows under RED. TFRC's goodput is smoother than TCP's (lower CoV, eq. 12); compare under BARE and FRED.",
  'ns3-dumbbell-sack':
    "ns-3's 10-flow dumbbell with today's TCP: NewReno with SACK under RED, and ns-3's 1 ms of access jitter. Switch SACK off in the flow group and watch the timeouts come back; try Drop Tail and FQ-CoDel.",
  'ns3-dumbbell-cubic-sack':
    'The same dumbbell with CUBIC and SACK: each flow regrows along a cubic curve after a loss. Compare the cwnd chart with NewReno, and the queue under Drop Tail, CoDel and FQ-CoDel.',
  'dctcp-datacenter':
    "DCTCP (RFC 8257) in a datacenter-like dumbbell: ten flows on 1 Gb/s with round trips of about 0.3 ms, and RED as DCTCP's step marker (min_th = max_th = K = 20 packets, w_q 1, ECN). Each flow cuts its window by half the fraction of marked packets, so the queue stays near K with the link full and nothing dropped. Set the flows' cc to newreno: halving at every mark with K below the bandwidth-delay product empties the queue and about 3.5% of the link goes unused.",
  'bench-100-tcp': 'The engine benchmark: 100 TCP flows on 10 Mb/s for 100 s. Heavy; run it at full speed.',
  'dualpi2-prague-cubic':
    "L4S (RFC 9330–9332): one TCP Prague flow (ECT(1), paced, DCTCP's response to marks) and one CUBIC flow at the same base RTT on 40 Mb/s under DualPI2. The coupling p_L = k·p′, p_C = p′² with k = 2 gives them similar rates (Prague about 1.4× CUBIC) while the L queue holds Prague's packets under 1 ms and the classic queue sits at the 15 ms target. Set k to 8 and CUBIC takes about 2.6× Prague's rate.",
  'dualpi2-rfc9332-params':
    "The DualPI2 preset with the parameters RFC 9332's Appendix A derives for round trips up to RTT_max = 100 ms: Tupdate = min(target, RTT_max/3) = 15 ms, α = 0.1·Tupdate/RTT_max² = 0.15 Hz, β = 0.3/RTT_max = 3 Hz, and a native L4S ramp from 800 µs over 400 µs instead of Linux's 1 ms step.",
  'pie-prague-cubic':
    "The same Prague and CUBIC flows under single-queue PIE (ECN off): one queue steered to 15 ms, so Prague's packets wait as long as CUBIC's, and it answers drops by halving like Reno. Compare the delays with the DualPI2 preset.",
  'fq-codel-prague-cubic':
    "The same Prague and CUBIC flows under FQ-CoDel: each flow has its own queue and an equal share of the link, whatever its congestion control; CoDel marks Prague's packets above its 5 ms target.",
  'bbr-vs-cubic-droptail':
    'BBR v1 (Cardwell et al. 2016) and CUBIC share 20 Mb/s (30 ms base RTT) behind a 500-packet Drop Tail buffer, about ten times the path’s bandwidth-delay product. BBR paces at its estimate of the bottleneck rate and caps its window at twice the BDP, so alone it would keep the queue short; CUBIC grows until the buffer overflows, the queue stays near full, and BBR’s minimum-RTT estimate rises with it. Compare with the FQ-CoDel preset, or set the buffer to 50 packets.',
  'bbr-vs-cubic-fq-codel':
    'The same BBR and CUBIC flows under FQ-CoDel: each flow has its own queue, so CUBIC’s losses keep its queue near CoDel’s 5 ms target and the two split the link about evenly. BBR, which does not slow down for drops, keeps its own queue at about its extra window’s worth (near 20 ms here).',
  'cake-host-fairness':
    "CAKE's triple isolation (Høiland-Jørgensen, Täht & Morton 2018, §III): host A runs one TCP flow, host B eight (one_host). Each of B's bulk flows earns a quantum divided by B's eight, so the hosts split the link: A 4.66, B 4.93 Mb/s. Turn host_isolation off, or pick FQ-CoDel, and B's eight flows take 8/9 (A about 1.1 Mb/s).",
  'cake-cbr-isolation':
    "A 5 Mb/s CBR among eight TCP flows on 10 Mb/s under CAKE: the CBR's own queue and its COBALT hold it near a ninth of the link (1.50 Mb/s) and the TCP flows share the rest evenly at an 8 ms mean delay. Under CoDel the CBR keeps 4.6 Mb/s.",
  'fq-pie-sparse-flow':
    "FQ-PIE: one PIE per flow queue, served by FQ-CoDel's round robin. The 64 kb/s ping's packets wait 0.5 ms (median) while the bulk flows' queues are steered to PIE's 15 ms; under single-queue PIE the ping waits 18 ms like everyone.",
  'cobalt-cbr-flood':
    "COBALT (Høiland-Jørgensen, Täht & Morton 2018, §III-C): a 20 Mb/s CBR flood beside ten TCP flows. CoDel's drops cannot keep up and the buffer fills (mean delay 405 ms); COBALT's BLUE, raised by each overflow, drops the flood at dequeue and the delay stays at 5.4 ms. One queue cannot share fairly: the flood still takes the link; try FQ-COBALT or CAKE.",
  'fq-cobalt-cbr-among-tcp':
    'FQ-COBALT: a CBR at the full 10 Mb/s among five TCP flows. Its own queue takes the overflow drops and its share is about a sixth of the link (1.93 Mb/s); under single-queue COBALT it takes 8.7 Mb/s.',
};

/** One sentence per preset for someone new to the field: what happens and what to look at, without jargon. */
const PLAIN: Record<string, string> = {
  'red-vs-droptail-cbr': 'One sender that never slows down shares a link with 32 polite ones, and takes most of it.',
  bufferbloat: 'A router with a huge waiting room: the link stays busy, but every packet waits almost a second.',
  'tcp-sync-droptail': 'Four downloads lose packets at the same moment and all slow down together, over and over.',
  'droptail-phase-locking': 'Ten downloads with clockwork timing: the full queue keeps turning away the same few, and one download takes half the link.',
  'droptail-access-jitter': 'The same ten downloads with a little random timing noise, as real computers have: the link is shared far more evenly.',
  'ns3-red-dumbbell': 'Ten downloads through RED, set up exactly as in a comparison with the ns-3 simulator.',
  'ns3-dumbbell-sack': 'The same comparison with the senders of today, which are told exactly which packets arrived and which were lost.',
  'ns3-dumbbell-cubic-sack': 'The same comparison with CUBIC, the way Linux computers send today: after a loss they grow back along a curve.',
  'two-way-traffic': 'Downloads in both directions at once: the small acknowledgements get stuck behind big data packets.',
  'red-ten-flows': 'Ten downloads through RED, which drops a few packets early to keep the queue short. Move its sliders while it runs.',
  'tcp32-cbr1': 'A sender that ignores losses among 32 that slow down: see which router rules keep it to its share.',
  'web-sessions-with-cbr': 'Web pages loading beside a heavy video-like stream: how long does each page take?',
  'bare-12-tcp-8-cbr': 'Eight greedy senders among twelve polite ones: BARE reins the greedy ones in.',
  'bare-200-tcp': 'Two hundred downloads at once: BARE keeps each close to an equal share.',
  'bare-weighted-tcp': 'Four groups of downloads that paid for 1, 2, 3 and 4 shares get bandwidth in that proportion.',
  'afpft-20-cbr': 'Senders asking for different rates: the router gives the small ones all they ask and splits the rest evenly.',
  'afpft-32-cbr': 'Thirty-two senders asking for ever more: the router gives each the same share anyway.',
  'afpft-parking-lot': 'One long stream crosses three busy links: is it squeezed at every one?',
  'csfq-20-cbr-water-filling': 'The same fair splitting done another way: each packet carries a note of its sender’s rate.',
  'csfq-32-cbr': 'Thirty-two senders asking for ever more, and each leaves with about the same share.',
  'rqrd-cbr-among-tcp': 'One sender as fast as the whole link among 20 polite ones: RQRD protects the polite ones.',
  'rqrd-drop-precedence': 'A stream labelled “please don’t drop me”: the router honours the label, and the others share what is left.',
  'dsred-three-ftp': 'Three downloads through DSRED, whose drop curve bends in two steps. Move gamma and watch it bend.',
  'nlred-20-tcp': 'Twenty downloads through NLRED, whose drop chance curves up gently instead of in a straight line.',
  'ared-5-to-100-flows': 'Five downloads, then 95 more join: Adaptive RED retunes itself to keep the queue in its target range.',
  'rem-40-tcp': 'Forty downloads through REM, which sets a “price” on congestion that rises with the load.',
  'codel-bufferbloat': 'The same huge waiting room as “Bufferbloat”, run by CoDel: packets wait about 10 ms instead of a second.',
  'codel-cellular': 'A phone-like link whose speed keeps changing: CoDel keeps the wait short even when the link slows down.',
  'bufferbloat-link-halves': 'A link that drops to half its speed behind a huge waiting room: every packet then waits twice as long.',
  'pie-bufferbloat': 'The huge waiting room again, run by PIE, which steers the waiting time to 15 ms.',
  'fq-codel-sparse-flow': 'A small, steady stream (like a voice call) beside ten big downloads: it gets through with almost no waiting.',
  'latency-under-load': 'A ping times round trips while four uploads fill the router’s waiting room: each trip grows to almost half a second.',
  'tfrc-tcp-red-smoothness': 'Video-style senders that change rate smoothly, beside ordinary downloads that lurch up and down.',
  'dctcp-datacenter': 'Ten downloads in a fast data centre that slow down just as much as the router asks: a short queue, and the link stays full.',
  'bench-100-tcp': 'A stress test: one hundred downloads for 100 seconds. Heavy: run it at full speed.',
  'dualpi2-prague-cubic': 'A low-latency download and an ordinary one share a link fairly, and the low-latency one barely waits.',
  'dualpi2-rfc9332-params': 'The same two downloads, with the router tuned by the numbers in the L4S standard.',
  'pie-prague-cubic': 'The same two downloads through one ordinary queue: the low-latency one waits as long as the other.',
  'fq-codel-prague-cubic': 'The same two downloads, each in its own queue: an even split, whatever each one does.',
  'cake-host-fairness': 'One computer with one download, another with eight: CAKE splits the link between the computers, not the downloads.',
  'cake-cbr-isolation': 'A sender that never slows down among eight downloads: CAKE holds it to an equal share.',
  'fq-pie-sparse-flow': 'A small, steady stream beside ten big downloads, each in its own queue: the small one barely waits.',
  'cobalt-cbr-flood': 'A flood that ignores every drop: COBALT keeps the wait short, but the flood still takes the link.',
  'fq-cobalt-cbr-among-tcp': 'A sender as fast as the link among five downloads: in its own queue it gets only its share.',
  'bbr-vs-cubic-droptail': 'A download that measures the path beside one that fills every buffer: the router’s waiting room fills anyway.',
  'bbr-vs-cubic-fq-codel': 'The same two downloads, each in its own queue: the waiting room stays nearly empty.',
};

function presetId(path: string): string {
  return path.replace(/^.*\//, '').replace(/\.json$/, '');
}

function orderOf(id: string): number {
  const i = Object.keys(CAPTIONS).indexOf(id);
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
}

export const PRESETS: Preset[] = Object.entries(files)
  .map(([path, scenario]) => {
    const id = presetId(path);
    return { id, title: scenario.name ?? id, plain: PLAIN[id] ?? '', caption: CAPTIONS[id] ?? '', scenario };
  })
  .sort((a, b) => orderOf(a.id) - orderOf(b.id) || a.id.localeCompare(b.id));
