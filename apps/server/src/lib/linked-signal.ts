/**
 * A signal that aborts when any of the given ones does, with a dispose() that takes its
 * listeners off them again. AbortSignal.any() leaves its listeners on the sources until they are
 * garbage-collected: a document action's signal, linked once per model call, collected dozens.
 */
export function linkSignals(...sources: (AbortSignal | undefined)[]) {
  const { signal, dispose } = linkedController(...sources);
  return { signal, dispose };
}

/**
 * An AbortController that aborts when any of the given signals does, and can be aborted on its
 * own too (the sibling calls of one action: the first failure stops the others, and the caller's
 * cancel stops them all). dispose() takes its listeners off the sources.
 */
export function linkedController(...sources: (AbortSignal | undefined)[]) {
  const controller = new AbortController();
  const present = sources.filter((s): s is AbortSignal => s !== undefined);
  const already = present.find((s) => s.aborted);
  if (already) {
    controller.abort(already.reason);
    return { controller, signal: controller.signal, dispose: () => {} };
  }
  const listeners = present.map((s) => {
    const onAbort = () => controller.abort(s.reason);
    s.addEventListener('abort', onAbort, { once: true });
    return () => s.removeEventListener('abort', onAbort);
  });
  return {
    controller,
    signal: controller.signal,
    dispose: () => listeners.forEach((remove) => remove()),
  };
}

/** `promise`, or the signal's reason if it aborts first (the promise itself goes on). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
