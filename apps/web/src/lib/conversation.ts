import { useSyncExternalStore, type ReactNode } from 'react';
import type { ProgressEvent } from '@inkwell/contract';
import { cancelJob } from './cancel-job';

/**
 * The conversation shown on the chat screen. The chat, the document actions and the page analysis
 * all post into it, so it lives in lib/ (features do not import each other). A tiny external store:
 * per-token updates re-render only the subscribers, and the virtualised list only its visible rows.
 */
export type MessageType = 'user' | 'ai' | 'system' | 'error';

export interface ConversationMessage {
  id: string;
  type: MessageType;
  text: string;
  /** A placeholder or a step still running ('Loading...', 'Starting … for …...'). */
  isLoading?: boolean;
  /**
   * An ai reply still arriving token by token. The conversation (a live region) is marked busy
   * meanwhile, so a screen reader reads the reply once, whole, instead of every fragment.
   */
  streaming?: boolean;
  /** The prompt counter after this ai reply (`n of max`). */
  counter?: { current: number; max: number };
  /** Extra content under the text (a chart, highlighted issues), built by the feature that posted it. */
  extra?: ReactNode;
  /** An ai reply cut short (Stop, a failure): what had arrived stays, as the server keeps it. */
  stopped?: boolean;
  /** Long work under way (a document action, a page analysis): its progress and its Cancel. */
  work?: {
    progress: ProgressEvent | null;
    cancel: () => void;
    label?: string;
    /** Its Cancel takes the focus when shown (work the person just started from a menu). */
    focus?: boolean;
  };
}

/** askQuestions question mode: the next sent text is a question about this document. */
export interface QuestionTarget {
  fileName: string;
  fileId?: number;
  file?: File;
}

export interface ConversationState {
  messages: ConversationMessage[];
  questionTarget: QuestionTarget | null;
  /** The latest prompt counter known (from the history or the last reply). */
  usage: { current: number; max: number } | null;
  /** A chat reply is arriving (sent here, or followed again after a reload): Stop replaces Send. */
  replying: boolean;
}

type Listener = () => void;

const STOPPED = 'Stopped by the user';
/** Whether a reply's signal was aborted by Stop (not by New Topic or logout). */
export const wasStopped = (signal: AbortSignal) =>
  signal.aborted && signal.reason instanceof DOMException && signal.reason.message === STOPPED;
const listeners = new Set<Listener>();
let state: ConversationState = { messages: [], questionTarget: null, usage: null, replying: false };
let nextId = 0;
/**
 * The chat reply being streamed: New Topic and logout stop listening to it (the server goes on
 * and keeps it); Stop asks the server to stop it (`stop`, once the reply's id is known), or, before
 * that, stops listening.
 */
let pendingReply: { controller: AbortController; stop?: () => void } | null = null;
/** Long work under way (document actions, page analyses); New Topic and logout cancel it too. */
const runningWork = new Set<{ cancel: () => void }>();
/** Increases on every reset, so work started before a New Topic does not post into the new one. */
let epoch = 0;

function set(patch: Partial<ConversationState>) {
  state = { ...state, ...patch };
  listeners.forEach((l) => l());
}

export const conversation = {
  getState: () => state,
  getEpoch: () => epoch,
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  /** Appends a message and returns its id. */
  add(message: Omit<ConversationMessage, 'id'> & { id?: string }): string {
    const id = message.id ?? `m${++nextId}`;
    set({ messages: [...state.messages, { ...message, id }] });
    return id;
  },
  update(id: string, patch: Partial<Omit<ConversationMessage, 'id'>>) {
    set({ messages: state.messages.map((m) => (m.id === id ? { ...m, ...patch } : m)) });
  },
  remove(id: string) {
    set({ messages: state.messages.filter((m) => m.id !== id) });
  },
  /** Replaces the whole list (history restored on load). */
  replaceAll(messages: ConversationMessage[]) {
    set({ messages });
  },
  setQuestionTarget(questionTarget: QuestionTarget | null) {
    set({ questionTarget });
  },
  setUsage(usage: { current: number; max: number } | null) {
    set({ usage });
  },
  /** A new reply starts streaming (or is followed again); returns its abort signal. */
  beginReply(): AbortSignal {
    pendingReply?.controller.abort();
    pendingReply = { controller: new AbortController() };
    set({ replying: true });
    return pendingReply.controller.signal;
  },
  /** How Stop reaches the server for the reply of `signal`, once its id is known. */
  setReplyStop(signal: AbortSignal, stop: () => void) {
    if (pendingReply?.controller.signal === signal) pendingReply.stop = stop;
  },
  /** The reply of `signal` has ended. */
  endReply(signal: AbortSignal) {
    if (pendingReply?.controller.signal !== signal) return;
    pendingReply = null;
    set({ replying: false });
  },
  /** Stop: the server stops the reply and keeps what it had; its stream ends marked stopped. */
  stopReply() {
    if (!pendingReply) return;
    if (pendingReply.stop) {
      pendingReply.stop();
      return;
    }
    pendingReply.controller.abort(new DOMException(STOPPED, 'AbortError'));
    pendingReply = null;
    set({ replying: false });
  },
  /** New Topic and logout: an empty screen, no question mode, no reply or work still running. */
  reset() {
    pendingReply?.controller.abort();
    pendingReply = null;
    for (const work of [...runningWork]) work.cancel();
    runningWork.clear();
    epoch += 1;
    set({ messages: [], questionTarget: null, replying: false });
  },
};

export function useConversation(): ConversationState {
  return useSyncExternalStore(conversation.subscribe, conversation.getState);
}

/** Whether a chat reply is arriving; re-renders only when that changes (not on every token). */
export function useReplying(): boolean {
  return useSyncExternalStore(conversation.subscribe, () => state.replying);
}

/** A loading system step (`Starting Summarize for a.pdf...`) whose outcome is posted after it. */
export function startStep(text: string): string {
  return conversation.add({ type: 'system', text, isLoading: true });
}

/** Ends a loading step: it stays in the list as a plain system message. */
export function endStep(id: string) {
  conversation.update(id, { isLoading: false });
}

/** Posted when the user cancels long work (spec §8 has no wording for it). */
export const cancelledText = (what: string) => `Cancelled: ${what}`;

/** A loading step of long work, with its progress bar and Cancel (see startWorkStep). */
export interface WorkStep {
  /** The step's message. */
  id: string;
  /** Aborted by Cancel, New Topic and logout: pass it to the request. */
  signal: AbortSignal;
  onProgress(progress: ProgressEvent): void;
  /** The server runs the work as a job with this id (Cancel then cancels the job). */
  onJob(id: string): void;
  /** The first message of the outcome takes the step's place (see WorkStepOptions). */
  replacedByOutcome: boolean;
  /** The step stays as a plain message. */
  end(): void;
}

export interface WorkStepOptions {
  /** The step's kind of message: a system step, or the ai 'Loading...' of a question. */
  type?: 'system' | 'ai';
  /** What its progress bar and Cancel are named for, when not its text. */
  label?: string;
  /** The job it follows, when it was started earlier (before a reload, on another device). */
  jobId?: string;
  /** The step's message is already in the list (restored in its place): it runs there. */
  messageId?: string;
  /** The outcome's first message replaces the step (a question's 'Loading...' becomes its answer). */
  replacedByOutcome?: boolean;
  /**
   * Its Cancel takes the focus: started from a menu or dialog that closed (the file drawer),
   * the person lands on the work, not back where the menu was opened (issue 39).
   */
  focus?: boolean;
}

/**
 * Posts a running step (or runs an already restored one) and returns its controls. The server
 * keeps the job: after a reload the conversation shows it again from GET /api/jobs (job-replay.ts).
 */
export function startWorkStep(text: string, options: WorkStepOptions = {}): WorkStep {
  const controller = new AbortController();
  let jobId = options.jobId;
  const work = {
    cancel: () => {
      controller.abort(new DOMException('Cancelled by the user', 'AbortError'));
      if (jobId) cancelJob(jobId);
    },
  };
  runningWork.add(work);
  const running = {
    isLoading: true,
    work: { progress: null, cancel: work.cancel, label: options.label, focus: options.focus },
  };
  const id = options.messageId ?? `m${++nextId}`;
  if (options.messageId && state.messages.some((m) => m.id === id))
    conversation.update(id, running);
  else conversation.add({ id, type: options.type ?? 'system', text, ...running });
  return {
    id,
    signal: controller.signal,
    replacedByOutcome: options.replacedByOutcome ?? false,
    onProgress: (progress) =>
      conversation.update(id, { work: { progress, cancel: work.cancel, label: options.label } }),
    onJob: (job) => {
      jobId = job;
    },
    end: () => {
      runningWork.delete(work);
      conversation.update(id, { isLoading: false, work: undefined });
    },
  };
}
