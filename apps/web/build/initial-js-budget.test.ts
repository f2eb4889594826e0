import { gzipSync } from 'node:zlib';
import type { Rollup } from 'vite';
import { describe, expect, it, vi } from 'vitest';
import { budgetLine, initialChunks, initialJsBudget, measureInitialJs } from './initial-js-budget';

const ROOT = '/repo/apps/web';
const src = (file: string) => `${ROOT}/src/${file}`;

/** A chunk of a fake bundle: only the fields the budget reads. */
function chunk(
  fileName: string,
  {
    isEntry = false,
    imports = [] as string[],
    dynamicImports = [] as string[],
    moduleIds = [] as string[],
    code = '',
  } = {},
): Rollup.OutputChunk {
  return {
    type: 'chunk',
    fileName,
    isEntry,
    isDynamicEntry: !isEntry,
    imports,
    dynamicImports,
    moduleIds,
    code: code || `/* ${fileName} */ export const x = ${JSON.stringify(fileName)};`,
  } as unknown as Rollup.OutputChunk;
}

function bundleOf(...items: (Rollup.OutputChunk | Rollup.OutputAsset)[]): Rollup.OutputBundle {
  return Object.fromEntries(items.map((i) => [i.fileName, i]));
}

const asset = (fileName: string) =>
  ({ type: 'asset', fileName, source: 'x'.repeat(10_000) }) as unknown as Rollup.OutputAsset;

/**
 * index → vendor → shared (static); index ⇢ chat (dynamic: the `/` route) → chat-vendor, and
 * chat ⇢ input (dynamic, rendered at once by the route) → input-vendor, and chat ⇢ pdf (dynamic,
 * on demand); index ⇢ faq (another route); vendor also reaches shared a second time through index,
 * input-vendor reaches vendor again; a worker asset and a stray chunk.
 */
const BUNDLE = bundleOf(
  chunk('assets/index.js', {
    isEntry: true,
    imports: ['assets/vendor.js', 'assets/shared.js'],
    dynamicImports: ['assets/chat.js', 'assets/faq.js'],
    moduleIds: [`${ROOT}/index.html`, src('main.tsx')],
  }),
  chunk('assets/vendor.js', { imports: ['assets/shared.js'] }),
  chunk('assets/shared.js'),
  chunk('assets/chat.js', {
    imports: ['assets/chat-vendor.js'],
    dynamicImports: ['assets/input.js', 'assets/pdf.js'],
    moduleIds: [src('chat/ChatScreen.tsx'), src('chat/WelcomeScreen.tsx')],
  }),
  chunk('assets/chat-vendor.js'),
  // Vite adds a query to some module ids.
  chunk('assets/input.js', {
    imports: ['assets/input-vendor.js'],
    moduleIds: [`${src('chat/InputBar.tsx')}?used`],
  }),
  chunk('assets/input-vendor.js', { imports: ['assets/vendor.js'] }),
  chunk('assets/pdf.js', { moduleIds: [src('files/PdfPreview.tsx')] }),
  chunk('assets/faq.js', { moduleIds: [src('faq/FaqPage.tsx')] }),
  chunk('assets/unreferenced.js'),
  asset('assets/pdf.worker.min.mjs'),
);

/** The `/` route's modules that load on its first render (what vite.config.ts lists). */
const ROUTE_MODULES = ['src/chat/ChatScreen.tsx', 'src/chat/InputBar.tsx'];
const ROUTE_IDS = ROUTE_MODULES.map((m) => `${ROOT}/${m}`);

const INITIAL = [
  'assets/index.js',
  'assets/chat.js',
  'assets/input.js',
  'assets/vendor.js',
  'assets/shared.js',
  'assets/chat-vendor.js',
  'assets/input-vendor.js',
];

describe('initial JS budget', () => {
  it('counts the entry, the chunks of the route modules and their static imports, each once', () => {
    const { chunks, missing } = initialChunks(BUNDLE, ROUTE_IDS);
    expect(chunks.map((c) => c.fileName)).toEqual(INITIAL);
    expect(missing).toEqual([]);
  });

  it('skips what loads on demand: other routes and the route’s own dynamic imports', () => {
    const names = initialChunks(BUNDLE, ROUTE_IDS).chunks.map((c) => c.fileName);
    expect(names).not.toContain('assets/faq.js');
    expect(names).not.toContain('assets/pdf.js');
    expect(names).not.toContain('assets/unreferenced.js');
  });

  it('without route modules, counts the entry and its static imports only', () => {
    expect(initialChunks(BUNDLE).chunks.map((c) => c.fileName)).toEqual([
      'assets/index.js',
      'assets/vendor.js',
      'assets/shared.js',
    ]);
  });

  it('reports route modules that no chunk holds', () => {
    const gone = `${ROOT}/src/chat/Renamed.tsx`;
    const { chunks, missing } = initialChunks(BUNDLE, [...ROUTE_IDS, gone]);
    expect(missing).toEqual([gone]);
    expect(chunks.map((c) => c.fileName)).toEqual(INITIAL);
  });

  it('ignores imports that are not chunks of the bundle (externals)', () => {
    const bundle = bundleOf(chunk('main.js', { isEntry: true, imports: ['https://cdn/x.js'] }));
    expect(initialChunks(bundle).chunks.map((c) => c.fileName)).toEqual(['main.js']);
  });

  it('sums the gzipped size of each counted chunk', () => {
    const { files, gzipBytes } = measureInitialJs(BUNDLE, ROUTE_IDS);
    const expected = INITIAL.map((name) => {
      const c = BUNDLE[name] as Rollup.OutputChunk;
      return { fileName: name, gzipBytes: gzipSync(c.code).length, isEntry: c.isEntry };
    });
    expect(files).toEqual(expected);
    expect(gzipBytes).toBe(expected.reduce((s, f) => s + f.gzipBytes, 0));
  });

  it('prints the figure against the budget', () => {
    expect(budgetLine(123_456, 200, 9)).toBe(
      'initial JS for /: 123.46 KB gzipped in 9 chunks (budget 200 KB)',
    );
    expect(budgetLine(1_000, 200, 1)).toBe(
      'initial JS for /: 1.00 KB gzipped in 1 chunk (budget 200 KB)',
    );
  });

  /** Runs the plugin's writeBundle hook with a recording context. */
  function runPlugin(bundle: Rollup.OutputBundle, budgetKb: number, routeModules?: string[]) {
    const plugin = initialJsBudget({ budgetKb, routeModules });
    const info = vi.fn();
    (plugin.configResolved as (c: unknown) => void)({ logger: { info }, root: ROOT });
    const error = vi.fn((message: string) => {
      throw new Error(message);
    });
    const hook = plugin.writeBundle as {
      order: string;
      handler: (this: unknown, options: unknown, bundle: Rollup.OutputBundle) => void;
    };
    expect(hook.order).toBe('post');
    let thrown: unknown;
    try {
      hook.handler.call({ error }, {}, bundle);
    } catch (err) {
      thrown = err;
    }
    return { info, thrown };
  }

  it('prints one line and passes when under budget', () => {
    const { info, thrown } = runPlugin(BUNDLE, 200, ROUTE_MODULES);
    expect(thrown).toBeUndefined();
    expect(info).toHaveBeenCalledTimes(1);
    expect(info.mock.calls[0]![0]).toMatch(
      /^initial JS for \/: \d+\.\d\d KB gzipped in 7 chunks \(budget 200 KB\)$/,
    );
  });

  // 5 kB of incompressible-ish code: over a 1 KB budget wherever it is counted.
  const noise = Array.from({ length: 2000 }, (_, i) => ((i * 7919) % 65_521).toString(36)).join('');

  it('fails the build when over budget, naming the chunks by size', () => {
    const heavyStatic = bundleOf(
      chunk('index.js', { isEntry: true, imports: ['big.js'] }),
      chunk('big.js', { code: noise }),
    );
    const over = runPlugin(heavyStatic, 1);
    expect(String(over.thrown)).toMatch(
      /initial JS for \/: .* in 2 chunks \(budget 1 KB\): over budget \(big\.js \d+\.\d\d KB, index\.js /,
    );
    expect(over.info).not.toHaveBeenCalled();
  });

  it('counts a lazy chunk the route renders at once, not one loaded on demand', () => {
    const heavyLazy = (moduleIds: string[]) =>
      bundleOf(
        chunk('index.js', { isEntry: true, dynamicImports: ['big.js'] }),
        chunk('big.js', { code: noise, moduleIds }),
      );
    expect(runPlugin(heavyLazy([src('faq/FaqPage.tsx')]), 1).thrown).toBeUndefined();
    const route = runPlugin(heavyLazy([src('chat/ChatScreen.tsx')]), 1, [
      'src/chat/ChatScreen.tsx',
    ]);
    expect(String(route.thrown)).toMatch(/over budget \(big\.js/);
  });

  it('fails when a route module is not in the bundle (renamed or moved)', () => {
    const { thrown, info } = runPlugin(BUNDLE, 200, [...ROUTE_MODULES, 'src/chat/Renamed.tsx']);
    expect(String(thrown)).toMatch(/route module not in the bundle: src\/chat\/Renamed\.tsx$/);
    expect(info).not.toHaveBeenCalled();
  });

  it('fails when the bundle has no entry', () => {
    expect(String(runPlugin(bundleOf(chunk('lazy.js')), 200).thrown)).toMatch(/no entry chunk/);
  });
});
