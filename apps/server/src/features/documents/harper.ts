import type { Linter } from 'harper.js';

/**
 * The Harper grammar checker (offline, WebAssembly). Starting it compiles the binary and loads
 * its dictionary, about 2 s, so it is started once, on first use, and shared by every request.
 * A failed start is forgotten so the next request tries again.
 */
let linter: Promise<Linter> | undefined;

export function getLinter(): Promise<Linter> {
  linter ??= (async () => {
    const { LocalLinter } = await import('harper.js');
    const { binary } = await import('harper.js/binary');
    const l = new LocalLinter({ binary });
    await l.setup();
    return l;
  })();
  linter.catch(() => {
    linter = undefined;
  });
  return linter;
}

export interface HarperFinding {
  message: string;
  start: number;
  end: number;
  rule: string;
  /** Replacement texts, in Harper's order ("" for a removal). */
  suggestions: string[];
}

/** Harper's findings for a text; spans are UTF-16 offsets, as harper.js reports them. */
export async function lintText(text: string): Promise<HarperFinding[]> {
  const l = await getLinter();
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
