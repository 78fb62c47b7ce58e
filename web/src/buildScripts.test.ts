// `npm start` and `npm test` serve or test the page's last build when nothing
// it is built from changed (scripts/lib.sh, web_build_is_current). These
// tests hold that a changed, added or deleted input makes the build stale.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const lib = fileURLToPath(new URL('../../scripts/lib.sh', import.meta.url));

function isCurrent(root: string): boolean {
  try {
    execFileSync('bash', ['-c', `source "${lib}" && web_build_is_current "$1"`, 'check', root]);
    return true;
  } catch {
    return false;
  }
}

/** Sets a path's modification time `secondsAgo` seconds in the past. */
function age(path: string, secondsAgo: number): void {
  const when = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, when, when);
}

describe('the page build is reused only while its inputs are unchanged', () => {
  let root: string;
  const stamp = () => join(root, 'web/dist/.built-from-sources');

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'aqm-build-'));
    for (const dir of ['web/src/charts', 'web/dist', 'scenarios', 'public']) mkdirSync(join(root, dir), { recursive: true });
    const inputs = ['web/src/charts/QueueChart.tsx', 'web/index.html', 'scenarios/red.json', 'public/favicon.svg'];
    for (const file of inputs) writeFileSync(join(root, file), 'x');
    for (const path of [...inputs, 'web/src/charts', 'web/src', 'web', 'scenarios', 'public']) age(join(root, path), 60);
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is stale before the first build', () => {
    expect(isCurrent(root)).toBe(false);
  });

  it('is current when the build is newer than every input', () => {
    writeFileSync(stamp(), '');
    expect(isCurrent(root)).toBe(true);
  });

  it('is stale after a source file changes', () => {
    writeFileSync(stamp(), '');
    age(stamp(), 30);
    writeFileSync(join(root, 'web/src/charts/QueueChart.tsx'), 'y');
    expect(isCurrent(root)).toBe(false);
  });

  it('is stale after a preset is added or deleted', () => {
    writeFileSync(stamp(), '');
    age(stamp(), 30);
    rmSync(join(root, 'scenarios/red.json'));
    expect(isCurrent(root)).toBe(false);
  });
});
