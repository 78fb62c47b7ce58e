// Short explainers per scheme, keyed by catalogue id. A scheme without one
// here still shows its catalogue summary and paper.

export const EXPLANATIONS: Record<string, string[]> = {
  droptail: [
    'A plain first-in first-out queue that drops arrivals only when the buffer is full.',
    'Flows that lose packets at the same overflow back off together (global synchronisation), and a large buffer stays full: the queueing delay grows with the buffer ("bufferbloat").',
  ],
  red: [
    'RED keeps an exponentially weighted average of the queue (orange line on the queue chart) and drops arrivals early with a probability that rises from 0 at min_th to max_p at max_th.',
    'Early, random drops desynchronise TCP flows and keep the average queue between the thresholds; w_q sets how slowly the average follows bursts.',
  ],
};
