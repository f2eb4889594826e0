#!/usr/bin/env node
// `npm test`: lint, format check, type-check, build the web app (the browser suite serves it),
// then every test project in one Vitest run. Ends with one plain summary line of the counts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const steps = [
  ['lint', 'npx', ['eslint', '.', '--max-warnings', '0']],
  ['format', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']],
  ['typecheck', 'npm', ['run', 'typecheck', '--silent']],
  ['build', 'npm', ['run', 'build', '--silent']],
  ['audit', 'node', ['scripts/audit.mjs']],
];

// Exit code 3 means the check could not run here (e.g. no audit endpoint): named in the summary.
const failedSteps = [];
const unavailableSteps = [];
for (const [name, cmd, args] of steps) {
  console.log(`\n▶ ${name}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status === 3) unavailableSteps.push(name);
  else if (r.status !== 0) failedSteps.push(name);
}

console.log('\n▶ tests');
const out = mkdtempSync(path.join(tmpdir(), 'inkwell-vitest-'));
const report = path.join(out, 'report.json');
const run = spawnSync(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
  { stdio: 'inherit' },
);
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests;
  failed = json.numFailedTests;
  skipped = json.numPendingTests + json.numTodoTests;
  // A suite that failed to load counts as a failure even if it declared no test.
  failed += json.testResults.filter(
    (t) => t.status === 'failed' && t.assertionResults.length === 0,
  ).length;
} catch {
  failed += 1;
}
rmSync(out, { recursive: true, force: true });
if (run.status !== 0 && failed === 0) failed = 1;

if (unavailableSteps.length)
  console.log(`\nChecks that could not run on this machine: ${unavailableSteps.join(', ')}`);
if (failedSteps.length) console.log(`\nFailed checks: ${failedSteps.join(', ')}`);
console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || failedSteps.length > 0 ? 1 : 0);
