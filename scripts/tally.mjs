// One closing line for the whole of `npm test`: the tests each runner passed
// and failed, from the cargo log and the vitest and Playwright JSON reports,
// each suite with its wall time (compiling included) when test.sh timed it.
import { existsSync, readFileSync } from 'node:fs';

const [cargoLog, vitestJson, playwrightJson, timesFile] = process.argv.slice(2);
const seconds = Object.fromEntries(
  timesFile && existsSync(timesFile)
    ? readFileSync(timesFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('='))
    : [],
);

function cargo(path) {
  let passed = 0;
  let failed = 0;
  for (const match of readFileSync(path, 'utf8').matchAll(/test result: \w+\. (\d+) passed; (\d+) failed/g)) {
    passed += Number(match[1]);
    failed += Number(match[2]);
  }
  return { passed, failed };
}

function vitest(path) {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  return { passed: report.numPassedTests, failed: report.numFailedTests };
}

function playwright(path) {
  const { stats } = JSON.parse(readFileSync(path, 'utf8'));
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected };
}

const suites = { engine: cargo(cargoLog), web: vitest(vitestJson), e2e: playwright(playwrightJson) };
for (const [name, { passed, failed }] of Object.entries(suites)) {
  console.log(`${name}: ${passed} passed, ${failed} failed${name in seconds ? ` in ${seconds[name]} s` : ''}`);
}
const total = Object.values(suites).reduce((sum, s) => ({ passed: sum.passed + s.passed, failed: sum.failed + s.failed }), { passed: 0, failed: 0 });
console.log(`total: ${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed > 0 ? 1 : 0);
