#!/usr/bin/env node
// `npm test`: lint, format check, type-check, build the web app (the browser suite serves it),
// then every test project in one Vitest run. Ends with one plain summary line of the counts.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, getPriority, setPriority, tmpdir } from 'node:os';
import path from 'node:path';

// Everything the suite starts runs at the niceness of the server's CPU workers (WORKER_NICENESS in
// apps/server/src/lib/worker-pool.ts), so a tested server's workers meet the suite's other
// processes as equals: at nice 0 those would take ~95 % of the cores from them, and a page audit
// that takes 2 s alone took over 30 s (on a machine of its own, a server's workers yield to its
// event loop). Only ever raised: a user may not take back a niceness they set higher themselves.
if (getPriority() < 10) setPriority(10);

// The type-checks of `npm run typecheck`, one step each.
const typechecks = JSON.parse(readFileSync('package.json', 'utf8'))
  .scripts.typecheck.split('&&')
  .map((command) => command.trim().split(/\s+/))
  .map(([tool, ...args]) => [`typecheck ${args.at(-1)}`, 'npx', [tool, ...args]]);

// Each step is one single-threaded process, so they run as many at a time as there are cores,
// longest first: on 2 cores the checks take ~60 % of their one-after-another time.
const steps = [
  typechecks.find(([name]) => name.endsWith('apps/server')),
  ['lint', 'npx', ['eslint', '.', '--max-warnings', '0']],
  ['build', 'npm', ['run', 'build', '--silent']],
  ['format', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']],
  ...typechecks.filter(([name]) => !name.endsWith('apps/server')),
  ['audit', 'node', ['scripts/audit.mjs']],
];

/** Runs one step with its output kept, and prints it whole when the step ends (no interleaving). */
function runStep([name, cmd, args]) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('error', (err) => (output += `${err.message}\n`));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      console.log(`\n▶ ${name} (${seconds} s${code === 0 ? '' : `, exit ${code}`})`);
      if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      resolve(code);
    });
  });
}

// Exit code 3 means the check could not run here (e.g. no audit endpoint): named in the summary.
const failedSteps = [];
const unavailableSteps = [];
const queue = [...steps];
async function lane() {
  for (let step = queue.shift(); step; step = queue.shift()) {
    const code = await runStep(step);
    if (code === 3) unavailableSteps.push(step[0]);
    else if (code !== 0) failedSteps.push(step[0]);
  }
}
await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, lane));

console.log('\n▶ tests');
const out = mkdtempSync(path.join(tmpdir(), 'inkwell-vitest-'));
const report = path.join(out, 'report.json');
const vitest = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
];
// As root, Chromium raises its own threads' priority (nice -8 for the browser and GPU processes,
// 0 for renderers): it then took most of both cores from the tested servers at nice 10, whose
// pages' scripts took 1-2 s to be served and whose tests ran out of time. Without the capability
// to lower a niceness, everything the suite starts stays at its niceness, as intended above.
const equalPriority =
  process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0
    ? ['setpriv', '--bounding-set=-sys_nice', '--inh-caps=-sys_nice', 'npx']
    : ['npx'];
const run = spawnSync(equalPriority[0], [...equalPriority.slice(1), ...vitest], {
  stdio: 'inherit',
});
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
