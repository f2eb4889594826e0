import { z } from 'zod';

/**
 * A user's personal dictionary (issue 40): words proofreading takes as written for that user
 * (names, terms of their trade). Harper does not flag them, and the corrected text never
 * changes them. Words are kept as written; a word already there in another case is not added
 * twice.
 *
 * GET    /api/dictionary          auth                → DictionaryResponse (sorted)
 * POST   /api/dictionary          auth, JSON { word } → DictionaryResponse (201 added, 200 there)
 * DELETE /api/dictionary/:word    auth                → DictionaryResponse (404 not there)
 * 400 a word that is empty, too long, has a space or a character no word has, or past
 * DICTIONARY_MAX_WORDS.
 */
export const DICTIONARY_MAX_WORDS = 1000;
export const DICTIONARY_WORD_MAX_CHARS = 64;

export const dictionaryWordSchema = z
  .string({ error: 'word is required' })
  .trim()
  .min(1, 'Enter a word')
  .max(DICTIONARY_WORD_MAX_CHARS, `A word is at most ${DICTIONARY_WORD_MAX_CHARS} characters`)
  .regex(
    /^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}'’.-]*[\p{L}\p{M}\p{N}])?$/u,
    'One word: letters and digits, with apostrophes, hyphens or dots inside it',
  );

export const dictionaryAddRequestSchema = z.object({ word: dictionaryWordSchema });
export type DictionaryAddRequest = z.infer<typeof dictionaryAddRequestSchema>;

export const dictionaryResponseSchema = z.object({ words: z.array(z.string()) });
export type DictionaryResponse = z.infer<typeof dictionaryResponseSchema>;
