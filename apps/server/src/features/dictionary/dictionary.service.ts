import { DICTIONARY_MAX_WORDS, type DictionaryResponse } from '@inkwell/contract';
import type { Db, Dialect } from '../../db/database';
import { badRequest, notFound } from '../../lib/http-error';
import { nowIso } from '../../lib/time';
import { dictionaryRepo } from './dictionary.repo';

/** The same words whatever was asked: a 404 tells nothing of the word (nor of other users'). */
export const NOT_IN_DICTIONARY = 'That word is not in your dictionary';

/** A user's personal dictionary: the words proofreading keeps as written for them. */
export async function listWords(db: Db, userId: number): Promise<DictionaryResponse> {
  return { words: await dictionaryRepo.words(db, userId) };
}

/** Adds a word (already checked by the contract); answers whether it was new. */
export async function addWord(
  db: Db,
  dialect: Dialect,
  userId: number,
  word: string,
): Promise<DictionaryResponse & { added: boolean }> {
  const outcome = await dictionaryRepo.add(db, dialect, {
    userId,
    word,
    now: nowIso(),
    cap: DICTIONARY_MAX_WORDS,
  });
  if (outcome === 'full') {
    throw badRequest(`Your dictionary is full (${DICTIONARY_MAX_WORDS} words): remove one first`);
  }
  return { words: await dictionaryRepo.words(db, userId), added: outcome === 'added' };
}

export async function removeWord(
  db: Db,
  userId: number,
  word: string,
): Promise<DictionaryResponse> {
  if (!(await dictionaryRepo.remove(db, userId, word))) {
    throw notFound(NOT_IN_DICTIONARY);
  }
  return listWords(db, userId);
}

/** The words of a user's dictionary, for proofreading. */
export const personalWords = (db: Db, userId: number) => dictionaryRepo.words(db, userId);
