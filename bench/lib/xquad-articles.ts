import { readFileSync } from 'node:fs';
import { answerAround, xquadDir } from './xquad';

/**
 * XQuAD by article (bench/ask-files.bench.ts): each of the 48 Wikipedia articles of a language
 * is its own file, so a question's answer is in exactly one file of its language (the same
 * article exists in the 11 others, translated: the bench asks which one is cited first).
 */
export interface XquadArticle {
  title: string;
  paragraphs: string[];
}

export interface XquadQuestion {
  question: string;
  answer: string;
  /** The answer with up to 30 characters on each side, within its paragraph. */
  answerInContext: string;
  article: number;
}

interface Raw {
  data: {
    title: string;
    paragraphs: {
      context: string;
      qas: { question: string; answers: { text: string; answer_start: number }[] }[];
    }[];
  }[];
}

export function loadArticles(lang: string): {
  articles: XquadArticle[];
  questions: XquadQuestion[];
} {
  const raw = JSON.parse(readFileSync(`${xquadDir()}/xquad.${lang}.json`, 'utf8')) as Raw;
  const articles: XquadArticle[] = [];
  const questions: XquadQuestion[] = [];
  raw.data.forEach((a, article) => {
    articles.push({ title: a.title, paragraphs: a.paragraphs.map((p) => p.context.trim()) });
    for (const p of a.paragraphs)
      for (const qa of p.qas) {
        const answer = qa.answers[0]!;
        const answerInContext = answerAround(p.context, answer).trim();
        questions.push({ question: qa.question, answer: answer.text, answerInContext, article });
      }
  });
  return { articles, questions };
}

/** `n` questions spread evenly over a language's questions (all of them when n ≥ their number). */
export function spread<T>(items: T[], n: number): T[] {
  if (n >= items.length) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

export const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
