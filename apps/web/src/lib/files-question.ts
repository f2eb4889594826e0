import { useSyncExternalStore } from 'react';

/**
 * "Ask my files" (issue 35): while it is on, the chat's next questions go across the user's
 * files (POST /api/ask_files) instead of to the chat. The files are the whole folder, or those
 * picked in the file drawer. The input bar (chat) and the drawer (files) share it, so it lives in
 * lib/ like the conversation.
 */
export interface PickedFile {
  id: number;
  fileName: string;
}

export interface FilesQuestionState {
  on: boolean;
  /** Empty: the whole folder. */
  picked: PickedFile[];
}

type Listener = () => void;
const listeners = new Set<Listener>();
let state: FilesQuestionState = { on: false, picked: [] };

function set(next: FilesQuestionState) {
  state = next;
  listeners.forEach((l) => l());
}

export const filesQuestion = {
  getState: () => state,
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  /** Turns the mode on (the whole folder unless files are picked) or off (forgetting the picks). */
  setOn(on: boolean) {
    set(on ? { ...state, on } : { on: false, picked: [] });
  },
  isPicked: (id: number) => state.picked.some((f) => f.id === id),
  /** Picks a file (which turns the mode on) or unpicks it. */
  toggle(file: PickedFile) {
    if (filesQuestion.isPicked(file.id)) filesQuestion.unpick(file.id);
    else set({ on: true, picked: [...state.picked, file] });
  },
  unpick(id: number) {
    set({ ...state, picked: state.picked.filter((f) => f.id !== id) });
  },
  /** A deleted file is no longer asked; a renamed one keeps its new name. */
  sync(files: { id: number; file_name: string }[]) {
    const names = new Map(files.map((f) => [f.id, f.file_name]));
    const picked = state.picked.flatMap((f) => {
      const name = names.get(f.id);
      return name === undefined ? [] : [{ id: f.id, fileName: name }];
    });
    const same =
      picked.length === state.picked.length &&
      picked.every((f, i) => f.fileName === state.picked[i]!.fileName);
    if (!same) set({ ...state, picked });
  },
  reset() {
    set({ on: false, picked: [] });
  },
};

export function useFilesQuestion(): FilesQuestionState {
  return useSyncExternalStore(filesQuestion.subscribe, filesQuestion.getState);
}
