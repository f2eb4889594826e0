import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { ProgressEvent } from '@inkwell/contract';

/**
 * "Summarizing part 12 of 87, about 3 min left": what long work shows under its step while it
 * runs. The heading is the server's (older servers: the stage and the part). The time left counts
 * down with `elapsedS`, the seconds since the event arrived, and never below 1 s; while little is
 * measured it is a range ("about 2-6 min left").
 */
export function describeProgress(p: ProgressEvent, elapsedS = 0): string {
  const waiting = p.running === 0 && p.queued_ahead > 0;
  const heading = p.heading ?? legacyHeading(p, waiting);
  if (p.eta_s === null || p.eta_s <= 0 || p.done >= p.total)
    return p.total > 0 ? heading : `${heading}…`;
  const left = (s: number) => Math.max(1, s - elapsedS);
  const time = p.eta_range_s
    ? durationRange(left(p.eta_range_s[0]), left(p.eta_range_s[1]))
    : duration(left(p.eta_s));
  return `${heading}, about ${time} left`;
}

function legacyHeading(p: ProgressEvent, waiting: boolean): string {
  const stage = p.stage.charAt(0).toUpperCase() + p.stage.slice(1);
  if (p.total <= 0) return stage;
  const part = `part ${Math.min(p.done + 1, p.total)} of ${p.total}`;
  return `${stage}: ${waiting ? `waiting to start ${part}` : part}`;
}

/** "2-6 min", "40 s-2 min": one unit when both ends share it. */
function durationRange(low: number, high: number): string {
  const [a, b] = [duration(low), duration(high)];
  if (a === b) return a;
  const unit = (d: string) => d.replace(/^[\d ]+/, '');
  return unit(a) === unit(b) && !a.includes('h') ? `${a.replace(/ \S+$/, '')}-${b}` : `${a}-${b}`;
}

/** "2 requests go before yours, about 40 s": only for work that waits for others' calls. */
export function describeQueue(p: ProgressEvent, elapsedS = 0): string | null {
  if (p.queued_ahead <= 0 || p.running) return null;
  const count =
    p.queued_ahead === 1
      ? '1 request goes before yours'
      : `${p.queued_ahead} requests go before yours`;
  const wait = p.queue_wait_s;
  return wait !== null && wait !== undefined && wait > 0
    ? `${count}, about ${duration(Math.max(1, wait - elapsedS))}`
    : count;
}

/** Seconds since `progress` arrived, ticking each second while it has a time to count down. */
function useSecondsSince(progress: ProgressEvent | null): number {
  const [tick, setTick] = useState<{ of: ProgressEvent | null; s: number }>({ of: null, s: 0 });
  useEffect(() => {
    if (!progress || (!progress.eta_s && !progress.queue_wait_s)) return;
    const arrived = Date.now();
    const timer = setInterval(
      () => setTick({ of: progress, s: (Date.now() - arrived) / 1000 }),
      1000,
    );
    return () => clearInterval(timer);
  }, [progress]);
  // A new event starts from its own figures.
  return tick.of === progress ? tick.s : 0;
}

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  const h = Math.floor(seconds / 3600);
  return `${h} h ${Math.round((seconds - h * 3600) / 60)} min`;
}

/** The progress bar, its text, the queue position and Cancel, inside a running step's message. */
export function WorkProgress({
  progress,
  onCancel,
  label,
  focus,
}: {
  progress: ProgressEvent | null;
  onCancel: () => void;
  /** What the work is, for the bar's accessible name. */
  label: string;
  /** Cancel takes the focus when shown. */
  focus?: boolean;
}) {
  const elapsed = useSecondsSince(progress);
  const cancel = useRef<HTMLButtonElement>(null);
  // Once, when shown: the person who just started the work lands on it.
  useEffect(() => {
    if (focus) cancel.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const determinate = progress !== null && progress.total > 0;
  const value = determinate ? (100 * progress.done) / progress.total : undefined;
  const text = progress ? describeProgress(progress, elapsed) : 'Starting…';
  const queue = progress ? describeQueue(progress, elapsed) : null;
  return (
    <Box sx={{ mt: 1, minWidth: { xs: 200, sm: 320 } }}>
      <LinearProgress
        variant={determinate ? 'determinate' : 'indeterminate'}
        value={value}
        aria-label={`Progress of ${label}`}
        aria-valuetext={text}
      />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="caption" component="p" color="text.secondary">
            {text}
          </Typography>
          {queue && (
            <Typography variant="caption" component="p" color="text.secondary">
              {queue}
            </Typography>
          )}
        </Box>
        <Button size="small" onClick={onCancel} ref={cancel}>
          Cancel
        </Button>
      </Box>
    </Box>
  );
}
