import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Logger, Plugin, Rollup } from 'vite';

export interface InitialJsBudgetOptions {
  /** The budget in kB (1 kB = 1000 bytes), gzipped. */
  budgetKb?: number;
  /**
   * The source modules behind dynamic `import()` that the first render of `/` loads at once (its
   * lazy route component, the lazy pieces that route renders straight away), as paths relative to
   * the Vite root. The chunks holding them count, with their static imports.
   */
  routeModules?: string[];
}

/**
 * Issue 7's bundle budget: the JavaScript a browser must load to render `/` must stay under
 * `budgetKb` gzipped. That is the entry chunk with everything it imports statically, plus the lazy
 * chunks `/` loads on its first render (named by `routeModules`) with their static imports, each
 * chunk once. Prints one line with the figure and fails the build when over budget, or when a
 * route module is missing from the bundle (renamed or moved: the list must follow).
 *
 * Sizes use Vite's units (1 kB = 1000 bytes, gzip at the default level), so the figure can be
 * checked against the per-chunk sizes Vite prints just above it.
 */
export function initialJsBudget({
  budgetKb = 200,
  routeModules = [],
}: InitialJsBudgetOptions = {}): Plugin {
  let logger: Pick<Logger, 'info'> = console;
  let root = process.cwd();
  return {
    name: 'inkwell:initial-js-budget',
    apply: 'build',
    configResolved(config) {
      logger = config.logger;
      root = config.root;
    },
    // writeBundle sees the final code (Vite rewrites preload markers in its own generateBundle);
    // 'post' + sequential: after Vite's size table, so the line closes the build's report.
    writeBundle: {
      order: 'post',
      sequential: true,
      handler(_options, bundle) {
        // Rollup's module ids use forward slashes on every platform.
        const ids = routeModules.map((m) => path.resolve(root, m).split(path.sep).join('/'));
        const { files, gzipBytes, missing } = measureInitialJs(bundle, ids);
        if (!files.some((f) => f.isEntry)) {
          this.error('initial JS budget: the bundle has no entry chunk');
        }
        if (missing.length > 0) {
          const names = missing.map((id) => path.relative(root, id));
          this.error(`initial JS budget: route module not in the bundle: ${names.join(', ')}`);
        }
        const line = budgetLine(gzipBytes, budgetKb, files.length);
        if (gzipBytes > budgetKb * 1000) {
          const biggest = [...files].sort((a, b) => b.gzipBytes - a.gzipBytes);
          const list = biggest.map((f) => `${f.fileName} ${(f.gzipBytes / 1000).toFixed(2)} KB`);
          this.error(`${line}: over budget (${list.join(', ')})`);
        }
        logger.info(line);
      },
    },
  };
}

export interface InitialJsFile {
  fileName: string;
  gzipBytes: number;
  isEntry: boolean;
}

/** A module id without Vite's query suffix (`?commonjs-proxy`, `?used`, ...). */
const withoutQuery = (id: string) => id.replace(/\?.*$/, '');

/**
 * The chunks loaded to render `/`: every entry chunk, the chunks holding the given route modules
 * (lazy chunks `/` loads on its first render), and, transitively, the chunks those import
 * statically (`imports`). Other `dynamicImports` are skipped: they load on demand. Breadth-first,
 * each chunk once. `missing` lists the route modules no chunk holds.
 */
export function initialChunks(
  bundle: Rollup.OutputBundle,
  routeModuleIds: readonly string[] = [],
): { chunks: Rollup.OutputChunk[]; missing: string[] } {
  const chunks = Object.values(bundle).filter(
    (item): item is Rollup.OutputChunk => item.type === 'chunk',
  );
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const queue: Rollup.OutputChunk[] = [];
  const seen = new Set<string>();
  const add = (chunk: Rollup.OutputChunk | undefined) => {
    // Not a chunk of this bundle (an external): nothing to download from us.
    if (!chunk || seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    queue.push(chunk);
  };
  chunks.filter((c) => c.isEntry).forEach(add);
  const missing: string[] = [];
  for (const id of routeModuleIds) {
    const holder = chunks.find((c) => c.moduleIds.some((m) => withoutQuery(m) === id));
    if (holder) add(holder);
    else missing.push(id);
  }
  for (let i = 0; i < queue.length; i++) {
    for (const imported of queue[i]!.imports) add(byName.get(imported));
  }
  return { chunks: queue, missing };
}

/** The chunks loaded to render `/` with their gzipped sizes, and the total. */
export function measureInitialJs(
  bundle: Rollup.OutputBundle,
  routeModuleIds: readonly string[] = [],
): { files: InitialJsFile[]; gzipBytes: number; missing: string[] } {
  const { chunks, missing } = initialChunks(bundle, routeModuleIds);
  const files = chunks.map((c) => ({
    fileName: c.fileName,
    gzipBytes: gzipSync(c.code).length,
    isEntry: c.isEntry,
  }));
  return { files, gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0), missing };
}

export function budgetLine(gzipBytes: number, budgetKb: number, chunkCount: number): string {
  const chunks = `${chunkCount} ${chunkCount === 1 ? 'chunk' : 'chunks'}`;
  return `initial JS for /: ${(gzipBytes / 1000).toFixed(2)} KB gzipped in ${chunks} (budget ${budgetKb} KB)`;
}
