// Presets are the scenario files in the repository's scenarios/ folder, the
// same files the CLI runs. Captions explain what each one is for; a file
// without a caption is still offered, under its own name.

import type { Scenario } from './types';

export interface Preset {
  id: string;
  title: string;
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
  'red-ten-flows': 'Ten TCP flows through RED (gentle mode). Drag max_p or max_th while it runs and watch the average queue settle at a new level.',
  'bench-100-tcp': 'The engine benchmark: 100 TCP flows on 10 Mb/s for 100 s. Heavy; run it at full speed.',
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
    return { id, title: scenario.name ?? id, caption: CAPTIONS[id] ?? '', scenario };
  })
  .sort((a, b) => orderOf(a.id) - orderOf(b.id) || a.id.localeCompare(b.id));
