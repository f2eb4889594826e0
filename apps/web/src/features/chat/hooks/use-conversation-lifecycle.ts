import { useEffect, useRef } from 'react';
import type { ChatMessage, Job, JobSummary } from '@inkwell/contract';
import { conversation, type ConversationMessage } from '../../../lib/conversation';
import { reportError } from '../../../lib/api-client';
import { filesQuestion } from '../../../lib/files-question';
import type { JobReplay } from '../../../lib/job-replay';

// Loaded on use: the history's zod schema must stay out of the shell's first chunk.
const getChatHistory = () => import('../api/get-chat-history').then((m) => m.getChatHistory());
const clearHistories = () => import('../api/clear-histories').then((m) => m.clearHistories());
const jobLists = () => import('../../../lib/list-jobs');
const getJob = (id: string) => import('../../../lib/get-job').then((m) => m.getJob(id));
const resumeReply = (id: number, text: string) =>
  import('./resume-reply').then((m) => m.resumeReply(id, text));

/** Shows one of the user's jobs as its feature does (composed by the routes); null: not shown. */
export type JobReplayer = (job: Job) => Promise<JobReplay | null>;

/**
 * Mounted once by the routes: restores the stored conversation when signed in, empties it on
 * logout, and runs New Topic (clears the server's histories and the screen) when the signal changes.
 * The conversation restored is the chat history and the user's jobs asked in it (GET /api/jobs,
 * page after page back to its `started_at`; the result of each ended one from GET /api/jobs/:id),
 * each in its place by time: results after a reload and on another device, and jobs still running
 * followed with their progress. `replayJob` must be stable.
 */
export function useConversationLifecycle({
  isAuthenticated,
  newTopicSignal,
  replayJob,
}: {
  isAuthenticated: boolean;
  newTopicSignal: number;
  replayJob?: JobReplayer;
}) {
  const lastSignal = useRef(newTopicSignal);

  useEffect(() => {
    if (!isAuthenticated) {
      conversation.reset();
      conversation.setUsage(null);
      filesQuestion.reset();
      return;
    }
    let cancelled = false;
    // The jobs' first page is asked for alongside the history; without jobs the history still shows.
    const firstPage = jobLists().then((m) => m.getJobPage());
    firstPage.catch(() => undefined); // read (and reported) below, once the history is here
    getChatHistory()
      .then(async (history) => {
        const usage = { current: history.current, max: history.max };
        conversation.setUsage(usage);
        const since = history.started_at ? Date.parse(history.started_at) : -Infinity;
        const jobs = await jobLists()
          .then((m) => m.listJobsSince(firstPage, since))
          .catch((err: Error) => {
            reportError(`Recent jobs: ${err.message}`);
            return [];
          });
        const replays = await replayJobs(jobs, replayJob);
        // Something typed meanwhile wins over the restored conversation.
        if (cancelled || conversation.getState().messages.length > 0) return;
        const messages = withCounter(history.messages.map(toMessage), usage);
        conversation.replaceAll(
          inTimeOrder(
            history.messages.map((m, i) => ({ at: m.created_at, messages: [messages[i]!] })),
            replays,
          ),
        );
        // A reply still being generated (a reload mid-reply, another device) streams on here.
        const streaming = history.messages.findLast((m) => m.streaming);
        if (streaming) void resumeReply(streaming.id, streaming.text);
        // So do the jobs still running, each in its step.
        for (const { replay } of replays) void replay.follow?.();
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [isAuthenticated, replayJob]);

  useEffect(() => {
    if (newTopicSignal === lastSignal.current) return;
    lastSignal.current = newTopicSignal;
    conversation.reset();
    if (isAuthenticated) {
      clearHistories().catch((err: Error) => reportError(`New topic: ${err.message}`));
    }
  }, [newTopicSignal, isAuthenticated]);
}

type Placed = { at: string; messages: ConversationMessage[] };

/** The jobs of this conversation, oldest first, as their features show them. */
async function replayJobs(
  jobs: JobSummary[],
  replayJob: JobReplayer | undefined,
): Promise<(Placed & { replay: JobReplay })[]> {
  if (!replayJob) return [];
  const ours = [...jobs].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  const replays = await Promise.all(
    ours.map((job) =>
      withResult(job)
        .then(replayJob)
        .catch(() => null),
    ),
  );
  return ours.flatMap((job, i) => {
    const replay = replays[i];
    return replay ? [{ at: job.created_at, messages: replay.messages, replay }] : [];
  });
}

/** A listed job with its result: asked for an ended one that has one (the list leaves it out). */
async function withResult(job: JobSummary): Promise<Job> {
  return job.state === 'done' ? getJob(job.id) : { ...job, result: null };
}

/** Chat messages and jobs merged by when they were asked (a job's messages stay together). */
function inTimeOrder(chat: Placed[], jobs: Placed[]): ConversationMessage[] {
  const all = [...chat, ...jobs];
  // Stable: at the same instant, the chat message (stored first) comes first.
  all.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return all.flatMap((p) => p.messages);
}

function toMessage(m: ChatMessage): ConversationMessage {
  return {
    id: `h${m.id}`,
    type: m.role === 'user' ? 'user' : 'ai',
    text: m.text,
    ...(m.stopped ? { stopped: true } : {}),
    ...(m.streaming ? { streaming: true, isLoading: !m.text } : {}),
  };
}

/**
 * The prompt counter on restored replies (spec §1: each ai reply carries `n of max`). The history
 * has only today's count, not the count after each old reply, so it goes on the newest reply alone:
 * the count after that reply is the current one. Older replies show none rather than a wrong one.
 */
function withCounter(
  messages: ConversationMessage[],
  usage: { current: number; max: number },
): ConversationMessage[] {
  const newest = messages.findLastIndex((m) => m.type === 'ai');
  return messages.map((m, i) => (i === newest ? { ...m, counter: usage } : m));
}
