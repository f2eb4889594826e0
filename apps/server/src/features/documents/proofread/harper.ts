import type { Linter } from 'harper.js';
import type { Dialect } from './english-dialect';
import { memoUntilFailure } from '../../../lib/memo-until-failure';

/**
 * The Harper grammar checker (offline, WebAssembly), run inside a proofreading worker
 * (harper-pool.ts). Starting it compiles the binary and loads its dictionary, about 2 s, so it
 * is started once per worker, on first use. A failed start is forgotten so the next call tries
 * again.
 */
const getLinter = memoUntilFailure(async (): Promise<Linter> => {
  const { LocalLinter } = await import('harper.js');
  const { binary } = await import('harper.js/binary');
  const l = new LocalLinter({ binary });
  await l.setup();
  return l;
});

/** Starts Harper now (server start), so the first proofread does not wait for it. */
export async function warmUpLinter(): Promise<void> {
  await getLinter();
}

export interface HarperFinding {
  message: string;
  start: number;
  end: number;
  rule: string;
  /** Replacement texts, in Harper's order ("" for a removal). */
  suggestions: string[];
}

/** harper.js's Dialect enum (American 0, British 1, Australian 2, Canadian 3, Indian 4). */
const HARPER_DIALECT: Record<Dialect, number> = {
  american: 0,
  british: 1,
  australian: 2,
  canadian: 3,
  indian: 4,
};

/** The personal dictionary the linter holds now (a user's words, joined), to skip a re-import. */
let importedWords = '';
/** One check at a time: a check's dialect and words must not change under it. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Harper's findings for a text in a dialect, with a user's personal words known to it (not
 * flagged); spans are UTF-16 offsets, as harper.js reports them.
 */
export function lintText(
  text: string,
  dialect: Dialect,
  words: readonly string[] = [],
): Promise<HarperFinding[]> {
  const run = queue.then(() => lintNow(text, dialect, words));
  queue = run.catch(() => undefined);
  return run;
}

const caseVariants = (w: string) => [w, w.toLowerCase(), w[0]!.toUpperCase() + w.slice(1)];

async function lintNow(
  text: string,
  dialect: Dialect,
  words: readonly string[],
): Promise<HarperFinding[]> {
  const l = await getLinter();
  await l.setDialect(HARPER_DIALECT[dialect]);
  const key = words.join('\n');
  if (key !== importedWords) {
    await l.clearWords();
    // Harper matches its dictionary by case: the word as written, in lower case and capitalised.
    if (words.length > 0) await l.importWords([...new Set(words.flatMap(caseVariants))]);
    importedWords = key;
  }
  const lints = await l.lint(text);
  return lints.map((lint) => {
    const span = lint.span();
    const suggestions = lint.suggestions().map((s) => {
      // 0 Replace, 1 Remove, 2 InsertAfter (harper.js SuggestionKind).
      const kind = s.kind() as number;
      const r = s.get_replacement_text();
      if (kind === 1) return '';
      if (kind === 2) return text.slice(span.start, span.end) + r;
      return r;
    });
    return {
      message: lint.message(),
      start: span.start,
      end: span.end,
      rule: lint.lint_kind_pretty() || lint.lint_kind(),
      suggestions,
    };
  });
}
