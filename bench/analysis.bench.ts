// Page analysis (issue "Page analysis"): on the same local pages in one run, our SEO and
// accessibility audits against Lighthouse 12 (npm lighthouse, Debian's Chromium): agreement on
// every SEO audit both have a verdict for, axe violations of ours ⊇ those failed in Lighthouse's
// accessibility category, and the time ratio (target ≤ 25 % in jsdom mode, full agreement).
//
// Verdicts: Lighthouse score 1 or "not applicable" is a pass (ours reports not-applicable audits as
// passed); structured-data is a manual audit in Lighthouse (no verdict), so it is not compared.
// Times: ours is both HTTP calls per page against the running product (jsdom mode: the child gets
// ANALYSIS_BROWSER=off; default mode: no setting at all, so it finds the installed Chromium itself
// and keeps it warm across requests); Lighthouse is its run per page in one already-launched Chromium (launch time
// printed apart, not counted). Each side gets one untimed warm-up on the clean page first.
import { existsSync } from 'node:fs';
import { compareA11y, compareSeo, type A11yComparison } from './fixtures/analysis/compare';
import { startLighthouse, type LighthouseFindings } from './fixtures/analysis/lighthouse';
import { startPageServer, type PageServer } from './fixtures/analysis/page-server';
import { analyseWithProduct, type ProductFindings } from './fixtures/analysis/product';
import { machineLine, result } from './lib/machine';
import { startServerProcess } from './lib/product-server';

const ROUNDS = Number(process.env.ANALYSIS_ROUNDS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const PRODUCT_ENV = { FETCH_ALLOW_HOSTS: '127.0.0.1', TRUST_PROXY: '127.0.0.1' };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const pct = (a: number, b: number) => (b === 0 ? 100 : (a / b) * 100);
const list = (xs: string[]) => (xs.length ? xs.join(', ') : '–');
const label = (p: { site: string; path: string }) =>
  p.site === 'main' ? p.path : `${p.site}${p.path}`;

async function runOurs(serverUrl: string, pages: PageServer['pages'], rounds: number) {
  const byRound: ProductFindings[][] = [];
  for (let r = 0; r < rounds; r++) {
    const round: ProductFindings[] = [];
    for (const page of pages) round.push(await analyseWithProduct(serverUrl, page.url));
    byRound.push(round);
  }
  return byRound;
}

function printSeo(pages: PageServer['pages'], lh: LighthouseFindings[], ours: ProductFindings[]) {
  const perAudit = new Map<string, { agree: number; total: number }>();
  let agree = 0;
  let total = 0;
  console.log('\nSEO verdicts, Lighthouse vs ours (pass = score 1 or not applicable):');
  pages.forEach((page, i) => {
    const c = compareSeo(lh[i]!, ours[i]!);
    for (const [audit, same] of Object.entries(c.verdicts)) {
      const t = perAudit.get(audit) ?? { agree: 0, total: 0 };
      t.total += 1;
      total += 1;
      if (same) {
        t.agree += 1;
        agree += 1;
      }
      perAudit.set(audit, t);
    }
    const failing = Object.entries(lh[i]!.seo)
      .filter(([, pass]) => !pass)
      .map(([id]) => id);
    const status = c.disagreements.length ? `${c.disagreements.length} DISAGREE` : 'agree';
    console.log(
      `  ${label(page).padEnd(22)} ${status.padEnd(11)} Lighthouse fails: ${list(failing)}`,
    );
    for (const d of c.disagreements) {
      console.log(
        `      ✗ ${d.audit}: Lighthouse ${d.lighthouse ? 'pass' : 'fail'}, ours ${
          d.ours === undefined ? 'missing' : d.ours ? 'pass' : 'fail'
        } (${d.details ?? ''})`,
      );
    }
  });
  console.log(
    '  per audit: ' +
      [...perAudit].map(([id, t]) => `${id} ${t.agree}/${t.total}`).join(', ') +
      `; not compared (no Lighthouse verdict): ${list([
        ...new Set(lh.flatMap((f) => Object.keys(f.seoWithoutVerdict))),
      ])}`,
  );
  return { agree, total };
}

function printA11y(
  mode: string,
  pages: PageServer['pages'],
  lh: LighthouseFindings[],
  ours: ProductFindings[],
) {
  console.log(`\nAccessibility, rules failed in Lighthouse's category vs ours (${mode}):`);
  const all: A11yComparison[] = [];
  pages.forEach((page, i) => {
    const c = compareA11y(lh[i]!, ours[i]!);
    all.push(c);
    console.log(
      `  ${label(page).padEnd(22)} Lighthouse ${String(c.lighthouse.length).padStart(2)}, ours found ${String(
        c.found.length,
      ).padStart(2)}; not checked: ${list(c.notChecked)}; MISSED: ${list(c.missed)}` +
        (c.informativeNotReported.length
          ? `; informative only in Lighthouse: ${list(c.informativeNotReported)}`
          : '') +
        (c.oursOnly.length ? `; only ours: ${list(c.oursOnly)}` : ''),
    );
  });
  const tally = (k: keyof A11yComparison) => sum(all.map((c) => c[k].length));
  return {
    lighthouse: tally('lighthouse'),
    found: tally('found'),
    notChecked: tally('notChecked'),
    missed: tally('missed'),
  };
}

function printTimes(
  pages: PageServer['pages'],
  lh: LighthouseFindings[],
  rounds: ProductFindings[][],
) {
  console.log(`\nTime per page (ours: median of ${rounds.length} rounds, both endpoints):`);
  pages.forEach((page, i) => {
    const mine = median(rounds.map((r) => r[i]!.ms));
    console.log(
      `  ${label(page).padEnd(22)} Lighthouse ${lh[i]!.ms.toFixed(0).padStart(6)} ms   ours ${mine
        .toFixed(0)
        .padStart(5)} ms`,
    );
  });
}

async function main() {
  console.log(machineLine());
  const site = await startPageServer();
  const { pages } = site;
  const clean = pages.find((p) => p.path === '/clean')!;
  console.log(`${pages.length} local pages on ${Object.keys(site.origins).length} loopback sites`);
  const lighthouse = await startLighthouse();
  const product = await startServerProcess({ ...PRODUCT_ENV, ANALYSIS_BROWSER: 'off' }).catch(
    async (err: unknown) => {
      await lighthouse.close();
      await site.close();
      throw err;
    },
  );
  try {
    // Lighthouse first, alone on the machine (the product idles).
    await lighthouse.run(clean.url);
    const lh: LighthouseFindings[] = [];
    for (const page of pages) lh.push(await lighthouse.run(page.url));
    await analyseWithProduct(product.url, clean.url);
    const rounds = await runOurs(product.url, pages, ROUNDS);
    const ours = rounds[0]!;
    if (ours.some((f) => f.a11yNotChecked.length === 0))
      throw new Error(
        'the product ran in Chromium mode: the jsdom figure needs ANALYSIS_BROWSER=off',
      );
    for (const w of new Set(lh.flatMap((f) => f.runWarnings))) console.log(`Lighthouse: ${w}`);
    const verdicts = (r: ProductFindings[]) =>
      JSON.stringify(r.map((f) => [f.seo, [...f.a11yViolations].sort()]));
    if (rounds.some((r) => verdicts(r) !== verdicts(ours)))
      console.log('WARNING: our verdicts differ between rounds (compared: round 1)');

    const seo = printSeo(pages, lh, ours);
    const a11y = printA11y('jsdom', pages, lh, ours);
    printTimes(pages, lh, rounds);

    const lhMs = sum(lh.map((f) => f.ms));
    const roundMs = rounds.map((r) => sum(r.map((f) => f.ms)));
    const oursMs = median(roundMs);
    const ratio = pct(oursMs, lhMs);
    console.log(
      `\nTotal over ${pages.length} pages: Lighthouse ${(lhMs / 1000).toFixed(1)} s ` +
        `(+ ${lighthouse.launchMs.toFixed(0)} ms Chromium launch, not counted); ours (jsdom) ` +
        `${oursMs.toFixed(0)} ms, rounds ${roundMs.map((m) => m.toFixed(0)).join(' / ')} ms; ` +
        `ratio ${ratio.toFixed(2)} %`,
    );
    console.log(
      `SEO: ${seo.agree}/${seo.total} verdicts agree. Accessibility: of ${a11y.lighthouse} rule ` +
        `failures in Lighthouse, ours found ${a11y.found}, did not check ${a11y.notChecked} ` +
        `(need a browser), missed ${a11y.missed}.`,
    );

    result({
      name: 'SEO verdicts agreeing with Lighthouse',
      value: pct(seo.agree, seo.total),
      unit: '%',
      target: '100 %',
      met: seo.agree === seo.total,
    });
    const checked = a11y.lighthouse - a11y.notChecked;
    result({
      name: "Lighthouse's axe failures found by ours, of those jsdom checks (jsdom)",
      value: pct(a11y.found, checked),
      unit: '%',
      target: '100 %',
      met: a11y.missed === 0,
    });
    result({
      name: "Lighthouse's axe failures not checked without a browser (jsdom)",
      value: a11y.notChecked,
      unit: 'rule failures',
    });
    result({
      name: 'time of ours (jsdom) / Lighthouse, same pages',
      value: ratio,
      unit: '%',
      target: '≤ 25 %',
      met: ratio <= 25,
    });
    result({ name: 'Lighthouse time, all pages', value: lhMs / 1000, unit: 's' });
    result({ name: 'ours (jsdom) time, all pages', value: oursMs, unit: 'ms' });

    if (existsSync(CHROMIUM)) await defaultMode(pages, lh, lhMs);
  } finally {
    await product.stop();
    await lighthouse.close();
    await site.close();
  }
}

/**
 * Second figure: the product as installed, with no setting: it finds the Chromium itself (the
 * usual install paths, or CHROMIUM_PATH when the bench is given one) and renders every rule.
 */
async function defaultMode(pages: PageServer['pages'], lh: LighthouseFindings[], lhMs: number) {
  const env: Record<string, string> = process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: CHROMIUM } : {};
  const product = await startServerProcess({ ...PRODUCT_ENV, ...env });
  try {
    await analyseWithProduct(product.url, pages[0]!.url); // warm-up: launches the shared browser
    const rounds = await runOurs(product.url, pages, ROUNDS);
    const ours = rounds[0]!;
    const modes = [...new Set(ours.map((f) => f.a11yMode ?? 'unknown'))];
    if (modes.join() !== 'chromium')
      throw new Error(`default mode ran in ${modes.join(', ')}, not Chromium alone`);
    const a11y = printA11y('default mode, Chromium found', pages, lh, ours);
    const roundMs = rounds.map((r) => sum(r.map((f) => f.ms)));
    const ms = median(roundMs);
    const ratio = pct(ms, lhMs);
    console.log(
      `Default mode (Chromium found): ours ${ms.toFixed(0)} ms over ${pages.length} pages ` +
        `(rounds ${roundMs.map((m) => m.toFixed(0)).join(' / ')} ms), ${ratio.toFixed(1)} % of ` +
        `Lighthouse; found ${a11y.found} of ${a11y.lighthouse} axe failures, missed ${a11y.missed}.`,
    );
    result({
      name: "Lighthouse's axe failures found by ours (default mode, Chromium found)",
      value: a11y.found,
      unit: `of ${a11y.lighthouse} rule failures`,
      target: `${a11y.lighthouse} of ${a11y.lighthouse}`,
      met: a11y.found === a11y.lighthouse,
    });
    result({
      name: 'time of ours (default mode, Chromium found) / Lighthouse',
      value: ratio,
      unit: '%',
      target: '≤ 10 %',
      met: ratio <= 10,
    });
  } finally {
    await product.stop();
  }
}

await main();
