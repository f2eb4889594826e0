import jschardet from 'jschardet';

/** Bytes the detector looks at: enough to be sure, little enough to stay fast on a 5 MB csv. */
const SAMPLE_BYTES = 64 * 1024;

// The detector's names (lower-cased) → TextDecoder labels, split by script. Short texts are
// ambiguous between scripts (a French "Café" also scores as Cyrillic), so the script is decided
// first by how much of the text is non-ASCII, and only then does the detector pick the code page.
const LATIN: Record<string, string> = {
  'windows-1252': 'windows-1252',
  'iso-8859-1': 'windows-1252',
  'windows-1250': 'windows-1250',
  'iso-8859-2': 'iso-8859-2',
  'windows-1254': 'windows-1254',
  'windows-1257': 'windows-1257',
};
const OTHER_SCRIPTS: Record<string, string> = {
  'windows-1251': 'windows-1251',
  ibm866: 'ibm866',
  'koi8-r': 'koi8-r',
  'koi8-u': 'koi8-u',
  'iso-8859-5': 'iso-8859-5',
  maccyrillic: 'x-mac-cyrillic',
  'windows-1253': 'windows-1253',
  'iso-8859-7': 'iso-8859-7',
  'windows-1255': 'windows-1255',
  'iso-8859-8': 'iso-8859-8',
  'windows-1256': 'windows-1256',
  'tis-620': 'windows-874',
  cp874: 'windows-874',
  shift_jis: 'shift_jis',
  cp932: 'shift_jis',
  'euc-jp': 'euc-jp',
  gb2312: 'gb18030',
  gb18030: 'gb18030',
  big5: 'big5',
  'euc-kr': 'euc-kr',
  cp949: 'euc-kr',
};

/**
 * Decodes text as people have it: a BOM (UTF-8, UTF-16 LE/BE) wins; then valid UTF-8; else the
 * legacy code page the detector finds (windows-1251, cp866, Shift_JIS, …); windows-1252 when unsure.
 */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    // ignoreBOM false (default) drops a UTF-8 BOM; fatal makes invalid UTF-8 fall through.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return decodeAs(bytes, detectLegacyEncoding(bytes.subarray(0, SAMPLE_BYTES)));
  }
}

// WHATWG windows-1252 for 0x80–0x9f. Node 20's TextDecoder('windows-1252') is really ISO-8859-1
// and turns these bytes (€ ‚ „ … ‘ ’ “ ” – — ™) into invisible C1 control characters.
const CP1252_80_9F =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** TextDecoder for `label`, with windows-1252 decoded as the standard says on every Node. */
export function decodeAs(bytes: Uint8Array, label: string): string {
  const text = new TextDecoder(label).decode(bytes);
  if (new TextDecoder(label).encoding !== 'windows-1252') return text;
  return text.replace(/[\u0080-\u009f]/g, (c) => CP1252_80_9F[c.charCodeAt(0) - 0x80]!);
}

/** The TextDecoder label of a single- or double-byte legacy encoding; windows-1252 if unsure. */
export function detectLegacyEncoding(sample: Uint8Array): string {
  const table = mostlyNonAscii(sample) ? OTHER_SCRIPTS : LATIN;
  let candidates: { encoding: string | null }[] = [];
  try {
    candidates = jschardet.detectAll(sample);
  } catch {
    // A detector failure only costs the guess.
  }
  for (const { encoding } of candidates) {
    const label = encoding
      ? table[encoding.toLowerCase().replace('iso8859', 'iso-8859')]
      : undefined;
    if (label) return label;
  }
  return 'windows-1252';
}

/** windows-1252 punctuation (€ ‚ „ … ‘ ’ “ ” – — ™ ‹ ›): high bytes that are not letters there. */
const isCp1252Punctuation = (b: number) =>
  b === 0x80 || (b >= 0x82 && b <= 0x89) || b === 0x8b || (b >= 0x91 && b <= 0x99) || b === 0x9b;

/**
 * True when letters are largely non-ASCII bytes (Cyrillic, Greek, CJK, …). Latin-script
 * languages write most letters in ASCII and only a few accented ones above 0x7f.
 */
function mostlyNonAscii(sample: Uint8Array): boolean {
  let ascii = 0;
  let high = 0;
  for (const b of sample) {
    if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)) ascii++;
    else if (b >= 0x80 && !isCp1252Punctuation(b)) high++;
  }
  return high > 0 && high / (high + ascii) >= 0.5;
}
