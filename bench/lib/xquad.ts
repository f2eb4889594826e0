import { existsSync, readFileSync } from 'node:fs';

/**
 * XQuAD (Artetxe et al., 2020; google-deepmind/xquad, CC BY-SA 4.0): 240 Wikipedia paragraphs
 * with 1,190 questions, professionally translated into 11 languages, each answer marked in its
 * paragraph. Not committed: fetch the repository's `xquad.<lang>.json` files into XQUAD_DIR
 * (default /tmp/xquad).
 */
export const XQUAD_LANGUAGES = [
  'ar',
  'de',
  'el',
  'en',
  'es',
  'hi',
  'ro',
  'ru',
  'th',
  'tr',
  'vi',
  'zh',
] as const;

export interface XquadLanguage {
  /** Every paragraph, in order, separated by blank lines: one file per language. */
  text: string;
  questions: { question: string; answer: string }[];
}

interface Raw {
  data: {
    paragraphs: { context: string; qas: { question: string; answers: { text: string }[] }[] }[];
  }[];
}

export const xquadDir = () => process.env.XQUAD_DIR ?? '/tmp/xquad';

export function hasXquad(lang: string): boolean {
  return existsSync(`${xquadDir()}/xquad.${lang}.json`);
}

export function loadXquad(lang: string): XquadLanguage {
  const raw = JSON.parse(readFileSync(`${xquadDir()}/xquad.${lang}.json`, 'utf8')) as Raw;
  const paragraphs: string[] = [];
  const questions: XquadLanguage['questions'] = [];
  for (const article of raw.data)
    for (const p of article.paragraphs) {
      paragraphs.push(p.context.replace(/\s*\n\s*/g, ' ').trim());
      for (const qa of p.qas)
        questions.push({ question: qa.question, answer: qa.answers[0]!.text });
    }
  return { text: paragraphs.join('\n\n'), questions };
}
