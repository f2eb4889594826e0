import { useSyncExternalStore } from 'react';

/**
 * A file's preview opened at a cited passage (a source chip under an answer across files,
 * issue 35). The chat posts the chips and the files feature shows the preview, so the request
 * goes through lib/: the chips call `open`, the files feature's host renders the dialog.
 */
export interface PassageTarget {
  fileId: number;
  fileName: string;
  /** Where, for people ("page 4"). */
  where: string;
  /** The passage's offsets in the file's extracted text (preview `?format=text`). */
  start: number;
  end: number;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let current: PassageTarget | null = null;

function set(next: PassageTarget | null) {
  current = next;
  listeners.forEach((l) => l());
}

export const passagePreview = {
  get: () => current,
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  open: (target: PassageTarget) => set(target),
  close: () => set(null),
};

export function usePassagePreview(): PassageTarget | null {
  return useSyncExternalStore(passagePreview.subscribe, passagePreview.get);
}
