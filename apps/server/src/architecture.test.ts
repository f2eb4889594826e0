import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import readConfig from 'dependency-cruiser/config-utl/extract-depcruise-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The import rules of `npm run lint` (.dependency-cruiser.js, .dependency-cruiser-features.js),
// here so `npm test` fails on a broken one too, and shown to catch what they are for on a small
// tree of made-up features.

const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
let imports: IConfiguration;
let featureCycles: IConfiguration;
beforeAll(async () => {
  imports = await readConfig(path.join(repoRoot, '.dependency-cruiser.js'));
  featureCycles = await readConfig(path.join(repoRoot, '.dependency-cruiser-features.js'));
});

/** The rules broken in `baseDir`'s apps/server, by name (one per violation). */
async function broken(config: IConfiguration, baseDir: string, start: string): Promise<string[]> {
  const { output } = await cruise(
    [start],
    { ...config.options, baseDir, validate: true, ruleSet: { forbidden: config.forbidden } },
    { extensions: ['.ts', '.js', '.json'] },
  );
  return (output as ICruiseResult).summary.violations.map((v) => v.rule.name).sort();
}
const importRules = (dir: string) => broken(imports, dir, 'apps/server');
const cycleRules = async (dir: string) => [
  ...(await broken(featureCycles, dir, 'apps/server/src/features')),
  ...(await featureKnots(dir)).map(() => 'feature-knot'),
];

/**
 * The features that depend on each other round in a circle, each feature taken whole (its
 * sub-folders with it), from the same cruise: the folder rule sees a feature's sub-folder as a
 * folder of its own, so this catches a cycle that leaves from one (documents/x -> files ->
 * documents). Tarjan's strongly connected components of the feature graph, those of two or more.
 */
async function featureKnots(baseDir: string): Promise<string[][]> {
  const { output } = await cruise(['apps/server/src/features'], {
    ...featureCycles.options,
    baseDir,
  });
  const featureOf = (p: string) => /^apps\/server\/src\/features\/([^/]+)\//.exec(p)?.[1];
  const edges = new Map<string, Set<string>>();
  for (const m of (output as ICruiseResult).modules) {
    const from = featureOf(m.source);
    if (!from) continue;
    const out = edges.get(from) ?? edges.set(from, new Set()).get(from)!;
    for (const d of m.dependencies) {
      const to = featureOf(d.resolved);
      if (to && to !== from) out.add(to);
    }
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const knots: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const knot: string[] = [];
      let w: string;
      do knot.push((w = stack.pop()!));
      while (w !== v);
      if (knot.length > 1) knots.push(knot.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return knots;
}

describe('the import rules hold on the server', () => {
  it('no deep import, no circle, no cycle between features', async () => {
    expect(await importRules(repoRoot)).toEqual([]);
    expect(await cycleRules(repoRoot)).toEqual([]);
  }, 60_000);
});

describe('the import rules catch', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

  /** A made-up server: features `a` and `b` with faces, lib, and `files` (path -> source). */
  function tree(files: Record<string, string>) {
    const root = mkdtempSync(path.join(tmpdir(), 'inkwell-imports-'));
    roots.push(root);
    const all: Record<string, string> = {
      'apps/server/src/lib/time.ts': 'export const now = () => 1;\n',
      'apps/server/src/features/a/a.service.ts': 'export const a = 1;\n',
      'apps/server/src/features/a/index.ts': "export { a } from './a.service';\n",
      'apps/server/src/features/b/b.service.ts': 'export const b = 2;\n',
      'apps/server/src/features/b/index.ts': "export { b } from './b.service';\n",
      ...files,
    };
    for (const [file, source] of Object.entries(all)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), source);
    }
    return root;
  }

  it('nothing in a tree that keeps them', async () => {
    const root = tree({
      'apps/server/src/features/b/b.service.ts':
        "import { a } from '../a';\nimport { now } from '../../lib/time';\nexport const b = a + now();\n",
      'apps/server/src/app.ts': "import { b } from './features/b';\nexport const app = b;\n",
    });
    expect(await importRules(root)).toEqual([]);
    expect(await cycleRules(root)).toEqual([]);
  });

  it("a feature importing another's file instead of its index", async () => {
    const root = tree({
      'apps/server/src/features/b/b.service.ts':
        "import { a } from '../a/a.service';\nexport const b = a;\n",
    });
    expect(await importRules(root)).toEqual(['feature-deep-import']);
  });

  it("code outside the features importing a feature's file", async () => {
    const root = tree({
      'apps/server/src/app.ts':
        "import { a } from './features/a/a.service';\nexport const x = a;\n",
    });
    expect(await importRules(root)).toEqual(['deep-import-from-outside']);
  });

  it('a cycle between features, even when each goes through the other’s index', async () => {
    const root = tree({
      'apps/server/src/features/a/a.service.ts': "import { b } from '../b';\nexport const a = 1;\n",
      'apps/server/src/features/b/other.ts': "import { a } from '../a';\nexport const o = a;\n",
      'apps/server/src/features/b/index.ts':
        "export { b } from './b.service';\nexport { o } from './other';\n",
    });
    expect(await cycleRules(root)).toEqual([
      'no-cycle-between-features',
      'no-cycle-between-features',
      'feature-knot',
    ]);
  });

  it("a cycle between features that leaves from a feature's sub-folder", async () => {
    const root = tree({
      'apps/server/src/features/a/deep/reader.ts':
        "import { b } from '../../b';\nexport const r = b;\n",
      'apps/server/src/features/b/b.service.ts': "import { a } from '../a';\nexport const b = a;\n",
    });
    expect(await cycleRules(root)).toContain('feature-knot');
  });

  it('two files of one room importing each other', async () => {
    const root = tree({
      'apps/server/src/features/a/one.ts':
        "import { two } from './two';\nexport const one = two;\n",
      'apps/server/src/features/a/two.ts':
        "import type { one } from './one';\nexport const two = 2 as unknown as typeof one;\n",
    });
    // A type import counts: one.ts -> two.ts at run time, two.ts -> one.ts by type.
    expect(new Set(await importRules(root))).toEqual(new Set(['no-circular']));
  });

  it('infrastructure importing a feature, and the product importing test fixtures', async () => {
    const root = tree({
      'apps/server/src/lib/uses-a.ts': "import { a } from '../features/a';\nexport const u = a;\n",
      'apps/server/src/features/b/testing.ts': 'export const fixture = 3;\n',
      'apps/server/src/features/a/a.service.ts':
        "import { fixture } from '../b/testing';\nexport const a = fixture;\n",
    });
    expect(await importRules(root)).toEqual([
      'infrastructure-imports-no-feature',
      'testing-face-only-in-tests',
    ]);
  });
});
