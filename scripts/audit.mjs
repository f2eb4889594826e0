#!/usr/bin/env node
// Dependency audit for `npm test`: `npm audit --omit=dev` must report no high or critical
// advisory in what the product ships. Exit 0 = clean, 1 = advisories found, 3 = the registry's
// audit endpoint could not be asked (some mirrors answer 405): reported, not silently passed.
import { spawnSync } from 'node:child_process';

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], {
  encoding: 'utf8',
  timeout: 120_000,
});
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.log(`audit: npm audit printed no report (${run.error?.message ?? `exit ${run.status}`})`);
  process.exit(3);
}

const counts = report.metadata?.vulnerabilities;
if (!counts) {
  const why = report.message ?? report.error?.summary ?? 'no advisory data in the answer';
  console.log(`audit: the registry's audit endpoint could not be asked: ${why}`);
  process.exit(3);
}

const serious = Object.entries(report.vulnerabilities ?? {}).filter(([, v]) =>
  ['high', 'critical'].includes(v.severity),
);
console.log(
  `audit: ${counts.total} advisories in production dependencies ` +
    `(critical ${counts.critical}, high ${counts.high}, moderate ${counts.moderate}, low ${counts.low})`,
);
for (const [name, v] of serious) console.log(`  ${v.severity}: ${name} (${v.range})`);
process.exit(serious.length > 0 ? 1 : 0);
