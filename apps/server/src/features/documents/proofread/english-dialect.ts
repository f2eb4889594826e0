import type { EnglishDialect } from '@inkwell/contract';

/**
 * The English a text is written in, from the spellings that tell the dialects apart: -our/-or
 * (colour), -tre/-ter (centre), -ence/-ense (defence), -yse/-yze (analyse), a doubled l
 * (travelled), grey/gray and the like, and -ise/-ize apart, since Canadian writes -our with -ize
 * (colour, organize) and British usually -our with -ise. Australian and Indian English spell as
 * British does: only the account setting chooses them. A text with no sign is American, which
 * is also what Harper assumes.
 */
export type Dialect = Exclude<EnglishDialect, 'auto'>;

const OUR =
  '(?:col|fav|harb|hon|lab|neighb|behavi|hum|rum|flav|sav|vap|val|vig|endeav|arm|od|parl|rig|splend|tum|cand|clam|ard|ferv)';
const IZE =
  '(?:organ|real|recogn|apolog|emphas|critic|summar|minim|maxim|optim|priorit|categor|special|standard|util|visual|character|author|modern|civil|final|normal|global|central|familiar|memor|symbol|stabil|subsid|sympath|legal|local|personal|mobil|harmon|colon|capital|industrial|neutral|penal|polar|rational|scrutin|synchron|theor|urban|vapor|vandal|computer|digit|custom|econom|agon|fertil|hospital|immun|jeopard|legitim|magnet|mechan|natural|patron|public|sanit|stigmat)';

const COMMONWEALTH: RegExp[] = [
  new RegExp(`\\b${OUR}our(s|ed|ing|ful|fully|ite|ites|able|less|hood|ly)?\\b`, 'gi'),
  /\b(centre|centres|centred|theatre|theatres|litre|litres|spectre|lustre|fibre|fibres|calibre|sombre|sabre)\b/gi,
  /\b(defen|offen|preten)ce(s)?\b/gi,
  /\b(anal|paral|catal|dial)ys(e|ed|es|ing)\b/gi,
  /\b(travel|cancel|model|label|fuel|counsel|level|signal|marvel|quarrel|rival|tunnel)l(ed|ing|er|ers)\b/gi,
  /\b(grey|greys|jewellery|aluminium|mould|moulds|sceptic|sceptical|catalogue|catalogues|plough|ageing|cheque|cheques|tyre|tyres|kerb|programme|programmes|paediatric|anaemia|oestrogen|encyclopaedia|manoeuvre|whilst|licence|practise|practised|enrol|enrolment|fulfil|skilful|storey|storeys)\b/gi,
];

const AMERICAN: RegExp[] = [
  new RegExp(`\\b${OUR}or(s|ed|ing|ful|fully|ite|ites|able|less|hood|ly)?\\b`, 'gi'),
  /\b(center|centers|centered|theater|theaters|liter|liters|specter|luster|fiber|fibers|caliber|somber|saber)\b/gi,
  /\b(defen|offen|preten)se(s)?\b/gi,
  /\b(anal|paral|catal)yz(e|ed|es|ing)\b/gi,
  /\b(travel|cancel|model|label|fuel|counsel|level|signal|marvel|quarrel|rival|tunnel)(ed|ing|er|ers)\b/gi,
  /\b(gray|grays|jewelry|aluminum|mold|molds|skeptic|skeptical|plow|pediatric|anemia|estrogen|maneuver|enroll|enrollment|fulfill|skillful)\b/gi,
];

const ISE = new RegExp(`\\b${IZE}is(e|es|ed|ing|ation|ations|er|ers)\\b`, 'gi');
const IZE_RE = new RegExp(`\\b${IZE}iz(e|es|ed|ing|ation|ations|er|ers)\\b`, 'gi');

const count = (text: string, patterns: RegExp[]) =>
  patterns.reduce((n, p) => n + (text.match(p)?.length ?? 0), 0);

export function detectEnglishDialect(text: string): Dialect {
  const commonwealth = count(text, COMMONWEALTH);
  const american = count(text, AMERICAN);
  const ise = count(text, [ISE]);
  const ize = count(text, [IZE_RE]);
  if (commonwealth > american) return ize > ise ? 'canadian' : 'british';
  if (american > commonwealth) return 'american';
  if (ise > ize) return 'british';
  return 'american';
}

/** The dialect to check a text in: the user's setting, or the text's own when it is `auto`. */
export function dialectFor(setting: EnglishDialect | undefined, text: string): Dialect {
  return setting && setting !== 'auto' ? setting : detectEnglishDialect(text);
}
