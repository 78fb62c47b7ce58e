// Rewrites what is generated from the engine's scheme catalogue: the
// "Scheme parameters" section at the end of docs/scenario-format.md (from
// `aqm-sim schemes`), so the tables say what the sliders and the CLI accept,
// and public/scenario.schema.json (from `aqm-sim schema`).
// Usage: npm run generate:schemes (builds aqm-sim, then runs this).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const docPath = `${root}docs/scenario-format.md`;
const heading = '## Scheme parameters';
const aqmSim = (...args) => execFileSync(`${root}target/release/aqm-sim`, args, { encoding: 'utf8' });
const catalogue = JSON.parse(aqmSim('schemes'));

const number = (x) => String(Number(x.toPrecision(12)));

function defaultText(p) {
  if (p.kind === 'switch') return p.default >= 0.5 ? 'on' : 'off';
  if (p.kind === 'buffer') return `${number(p.default)} packets (${number(p.default * 1000)} bytes)`;
  return number(p.default);
}

const rangeText = (p) => (p.kind === 'switch' ? 'on/off' : `${number(p.min)} – ${number(p.max)}`);
const unitText = (p) => (p.kind === 'switch' ? 'switch' : p.kind === 'buffer' ? 'buffer' : p.unit || '—');

const sections = catalogue.map((scheme) => {
  const head = `#### \`${scheme.id}\` (${scheme.name})\n`;
  if (scheme.params.length === 0) return `${head}\nNo parameters.\n`;
  const rows = scheme.params.map((p) => `| \`${p.id}\` | ${p.label} | ${defaultText(p)} | ${rangeText(p)} | ${unitText(p)} | ${p.doc} |`);
  return `${head}\n| key | name | default | range | unit | meaning |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n`;
});

const intro = `${heading}

Generated from \`aqm-sim schemes\` by \`npm run generate:schemes\`.
"buffer" parameters follow the buffer's unit (ranges shown for packets;
×1000 for a buffer in bytes); "switch" parameters are on/off (\`1\`/\`0\`).
The page shows each parameter as its name with its key beside it, e.g.
"max threshold (max_th)".
`;

const doc = readFileSync(docPath, 'utf8');
const at = doc.indexOf(heading);
if (at < 0) throw new Error(`${docPath}: no "${heading}" section`);
writeFileSync(docPath, `${doc.slice(0, at)}${intro}\n${sections.join('\n')}`);
console.log(`${docPath}: ${catalogue.length} schemes`);
const schemaPath = `${root}public/scenario.schema.json`;
writeFileSync(schemaPath, aqmSim('schema'));
console.log(`${schemaPath}: written`);
