import { useState } from 'react';

/**
 * True from the first render where `flag` is true on. For UI that loads lazily on first use
 * (outside what `/` loads to render) and then stays mounted, so that it can close with its
 * transition instead of vanishing.
 */
export function useHasBeenTrue(flag: boolean): boolean {
  const [seen, setSeen] = useState(flag);
  // Adjusting state while rendering (React's pattern for state derived from props).
  if (flag && !seen) setSeen(true);
  return seen || flag;
}
