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
  /** Each question's answer, and with up to 30 characters on each side within its paragraph. */
  questions: { question: string; answer: string; answerInContext: string }[];
}

interface Raw {
  data: {
    paragraphs: {
      context: string;
      qas: { question: string; answers: { text: string; answer_start: number }[] }[];
    }[];
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
      const flat = (t: string) => t.replace(/\s*\n\s*/g, ' ').trim();
      paragraphs.push(flat(p.context));
      for (const qa of p.qas) {
        const answer = qa.answers[0]!;
        const around = answerAround(p.context, answer);
        questions.push({
          question: qa.question,
          answer: answer.text,
          answerInContext: flat(around),
        });
      }
    }
  return { text: paragraphs.join('\n\n'), questions };
}

/**
 * The answer with up to 30 characters on each side, within its paragraph (found at its
 * `answer_start`, or where it first occurs when the translation moved it).
 */
export function answerAround(context: string, a: { text: string; answer_start: number }): string {
  const { text, answer_start } = a;
  const at =
    context.slice(answer_start, answer_start + text.length) === text
      ? answer_start
      : context.indexOf(text);
  return context.slice(Math.max(0, at - 30), at + text.length + 30);
}
