/**
 * `make()`'s promise, made on the first call and shared by every call after it, unless it
 * failed: a failure is forgotten, so the next call tries again. Kept, a failed first try (the
 * database restarting, a folder not made yet) would fail every later call of the process.
 */
export function memoUntilFailure<T>(make: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | undefined;
  return () => {
    if (!kept) {
      const made = make();
      kept = made;
      made.catch(() => {
        if (kept === made) kept = undefined;
      });
    }
    return kept;
  };
}
