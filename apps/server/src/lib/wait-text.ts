import { ERROR_MESSAGES } from '@inkwell/contract';

/** "30 seconds", "1 minute", "5 minutes", "2 hours": a wait rounded up to a unit people read. */
export function waitText(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'}`;
  if (s < 60) return unit(s, 'second');
  if (s < 90 * 60) return unit(Math.ceil(s / 60), 'minute');
  return unit(Math.ceil(s / 3600), 'hour');
}

/** The spec's 429 text, then what was limited and how long to wait. */
export function rateLimitedMessage(seconds: number, what = 'Too many attempts'): string {
  return `${ERROR_MESSAGES.rateLimited} ${what}: try again in ${waitText(seconds)}.`;
}
