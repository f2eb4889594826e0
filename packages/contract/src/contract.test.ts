import { describe, expect, it } from 'vitest';
import {
  chatHistoryResponseSchema,
  FILE_SIZE_LIMITS,
  MB,
  TRANSLATION_LANGUAGES,
  registerRequestSchema,
  summarizeRequestSchema,
  updateUserRequestSchema,
} from './index';

describe('contract', () => {
  it('holds the 27 translation languages of spec §9, each once', () => {
    expect(TRANSLATION_LANGUAGES).toHaveLength(27);
    expect(new Set(TRANSLATION_LANGUAGES).size).toBe(27);
  });

  it('caps txt at 2 MB, csv at 5 MB and the rest at 10 MB', () => {
    expect(FILE_SIZE_LIMITS).toEqual({
      txt: 2 * MB,
      csv: 5 * MB,
      xlsx: 10 * MB,
      pdf: 10 * MB,
      docx: 10 * MB,
      pptx: 10 * MB,
    });
  });

  it('reads a chat history from a server that does not yet say when the conversation began', () => {
    const history = { current: 1, max: 50, messages: [] };
    expect(chatHistoryResponseSchema.parse(history).started_at).toBeUndefined();
    expect(chatHistoryResponseSchema.parse({ ...history, started_at: null }).started_at).toBeNull();
    expect(() => chatHistoryResponseSchema.parse({ ...history, started_at: 5 })).toThrow();
  });

  it('summarizes in bounded mode unless full is asked for', () => {
    expect(summarizeRequestSchema.parse({})).toEqual({ mode: 'bounded' });
    expect(summarizeRequestSchema.parse({ mode: '' })).toEqual({ mode: 'bounded' });
    expect(summarizeRequestSchema.parse({ mode: 'full' })).toEqual({ mode: 'full' });
    const bad = summarizeRequestSchema.safeParse({ mode: 'all' });
    expect(bad.success ? null : bad.error.issues[0]?.message).toBe('mode must be bounded or full');
  });

  it('normalises the email and makes names optional at registration', () => {
    const parsed = registerRequestSchema.parse({
      email: '  Ada@Example.COM ',
      password: 'long enough',
    });
    expect(parsed).toEqual({
      email: 'ada@example.com',
      password: 'long enough',
      first_name: '',
      last_name: '',
    });
  });

  it('takes exactly one field in a profile update', () => {
    expect(updateUserRequestSchema.safeParse({ first_name: 'A' }).success).toBe(true);
    expect(updateUserRequestSchema.safeParse({ first_name: 'A', last_name: 'B' }).success).toBe(
      false,
    );
    expect(updateUserRequestSchema.safeParse({}).success).toBe(false);
  });
});
