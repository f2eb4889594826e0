/**
 * The malformed bodies of the hostile-input matrix (hostile-requests.ts): JSON of wrong types,
 * 100,000 levels deep, broken, with prototype keys; multipart without a boundary, cut short,
 * without a file, with empty and broken files, hostile names and duplicate fields; url-encoded
 * oddities, charsets the parsers refuse and unknown content types.
 */
export interface HostileBody {
  name: string;
  /** What kind of malformation: a representative subset takes one body of every kind. */
  kind: string;
  /** Undefined: no content-type header at all. */
  contentType?: string;
  body: Buffer;
  /** The body is one the parser must refuse (answered 400 by every route that reads it). */
  unreadable?: 'multipart';
}

/** Where `url` fields go (page analysis): never a name a resolver would be asked about. */
export const SAFE_URL = 'http://127.0.0.1:1/';
const DEPTH = 100_000;

const HOSTILE_STRINGS = [
  '../../etc/passwd',
  '..\\..\\boot.ini',
  'a\u0000b',
  '\u202Egnp.exe',
  'CON',
  '\ud800',
  '<script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1:1/x}',
  "'; DROP TABLE users; --",
  '%00',
];

/** Hostile names a file part may carry; the contents are a readable text. */
export const HOSTILE_FILE_NAMES = [
  '../../etc/passwd.txt',
  '..\\..\\windows\\win.ini.txt',
  'a\u0000b.txt',
  '\u202Etxt.exe.txt',
  'CON.txt',
  `${'x'.repeat(300)}.txt`,
  'quote".txt',
  '<img src=x onerror=alert(1)>.txt',
  'line\r\nbreak.txt',
  'no_extension',
  '.txt',
  'UPPER.TXT',
];

/** Files that claim a type and are not one (or are nothing at all). */
const BROKEN_FILES: [string, Buffer][] = [
  ['empty.txt', Buffer.alloc(0)],
  ['broken.pdf', Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R')],
  ['broken.docx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(64, 0xaa)])],
  ['broken.xlsx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(64, 0x55)])],
  ['broken.pptx', Buffer.from('PK\u0005\u0006' + '\u0000'.repeat(18))],
  ['broken.csv', Buffer.from('"unterminated,1\n2,"3\n\u0000,\u0000')],
  ['binary.txt', Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x00, 0x00, 0xc3, 0x28])],
  ['image.pdf', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
];

interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: string | Buffer;
}

const BOUNDARY = 'hostileBoundary7MA4YWxk';

/** A multipart body written by hand, so it can be broken exactly where a test wants. */
function multipart(parts: Part[], opts: { close?: boolean } = {}): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    const type = p.contentType ? `\r\nContent-Type: ${p.contentType}` : '';
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  if (opts.close !== false) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const formType = `multipart/form-data; boundary=${BOUNDARY}`;
const json = (name: string, value: unknown): HostileBody => ({
  name,
  kind: 'json: wrong types',
  contentType: 'application/json',
  body: Buffer.from(JSON.stringify(value)),
});
const raw = (
  kind: string,
  name: string,
  contentType: string | undefined,
  body: string | Buffer,
): HostileBody => ({ name, kind, contentType, body: Buffer.from(body) });

/** Every field of `fields` set to `value`, except `url`, which stays a harmless address. */
const allFields = (fields: string[], value: (i: number) => unknown) =>
  Object.fromEntries(fields.map((f, i) => [f, f === 'url' ? SAFE_URL : value(i)]));

/**
 * The fields a valid form of the route would carry (so a hostile file goes as deep as it can):
 * the route's own JSON fields when it declares some, else what the web app sends in its forms.
 */
export const FORM_FIELDS: Record<string, string> = {
  text: 'What is this about?',
  target_language: 'French',
  url: SAFE_URL,
};

export function hostileBodies(fields: string[]): HostileBody[] {
  const names = fields.length > 0 ? fields : Object.keys(FORM_FIELDS);
  const first = names[0]!;
  const deepArray = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
  const deepObject = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);
  const textFields: Part[] = Object.entries(FORM_FIELDS).map(([name, data]) => ({ name, data }));
  const textFile = (filename: string): Part => ({
    name: 'file',
    filename,
    contentType: 'text/plain',
    data: 'A short readable text about gulls and harbours.',
  });
  const J = 'application/json';
  const unreadable = (b: HostileBody): HostileBody => ({ ...b, unreadable: 'multipart' });
  return [
    json(
      'json: numbers',
      allFields(names, () => 12345),
    ),
    json(
      'json: arrays',
      allFields(names, () => ['a', 1]),
    ),
    json(
      'json: objects',
      allFields(names, () => ({ a: { b: 1 } })),
    ),
    json(
      'json: nulls',
      allFields(names, () => null),
    ),
    json(
      'json: booleans',
      allFields(names, () => true),
    ),
    json(
      'json: huge strings',
      allFields(names, () => 'x'.repeat(70_000)),
    ),
    json(
      'json: hostile strings',
      allFields(names, (i) => HOSTILE_STRINGS[i % 10]),
    ),
    json('json: an array', [allFields(names, () => 'a')]),
    raw('json: not an object', 'json: null', J, 'null'),
    raw('json: not an object', 'json: a string', J, '"text"'),
    raw('json: not an object', 'json: a number', J, '1e999'),
    raw('json: deep', 'json: 100,000-deep array', J, deepArray),
    raw('json: deep', 'json: 100,000-deep object', J, deepObject),
    raw('json: deep', 'json: 100,000-deep field', J, `{"${first}":${deepArray}}`),
    raw('json: broken', 'json: cut short', J, `{"${first}":"abc`),
    raw('json: broken', 'json: trailing garbage', J, `{"${first}":"a"} x`),
    raw('json: broken', 'json: single quotes', J, `{'${first}':'a'}`),
    raw('json: broken', 'json: empty', J, ''),
    raw(
      'json: prototype',
      'json: __proto__',
      J,
      `{"__proto__":{"role":"operator"},"${first}":"a"}`,
    ),
    raw('json: prototype', 'json: constructor', J, '{"constructor":{"prototype":{"role":"x"}}}'),
    raw('json: prototype', 'json: nested __proto__', J, `{"${first}":{"__proto__":{"x":1}}}`),
    raw('json: prototype', 'json: duplicate keys', J, `{"${first}":"a","${first}":1}`),
    raw('json: encoding', 'json: invalid UTF-8', J, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d])),
    raw('json: encoding', 'json: UTF-16 charset', `${J}; charset=utf-16`, '\ufeff{}'),
    raw('json: encoding', 'json: unknown charset', `${J}; charset=klingon`, '{}'),
    // multipart the parser cannot read: every form route answers these 400
    unreadable(raw('multipart: unreadable', 'multipart: no boundary', 'multipart/form-data', 'x')),
    unreadable(
      raw(
        'multipart: unreadable',
        'multipart: boundary of 300 characters',
        `multipart/form-data; boundary=${'b'.repeat(300)}`,
        `--${'b'.repeat(300)}\r\n`,
      ),
    ),
    unreadable(
      raw(
        'multipart: unreadable',
        'multipart: file cut short',
        formType,
        multipart([...textFields, textFile('cut.txt')], { close: false }).subarray(0, -2),
      ),
    ),
    // multipart that reads as (nearly) nothing
    raw('multipart: broken', 'multipart: empty boundary', 'multipart/form-data; boundary=', 'x'),
    raw('multipart: broken', 'multipart: garbage', formType, `--${BOUNDARY}\r\nno headers at all`),
    raw('multipart: broken', 'multipart: empty body', formType, ''),
    raw('multipart: broken', 'multipart: only the end', formType, `--${BOUNDARY}--\r\n`),
    raw(
      'multipart: broken',
      'multipart: unknown charset',
      `${formType}; charset=klingon`,
      multipart(textFields),
    ),
    raw('multipart: no file', 'multipart: no file', formType, multipart(textFields)),
    ...BROKEN_FILES.map(([filename, data]) =>
      raw(
        'multipart: broken file',
        `multipart: file ${filename}`,
        formType,
        multipart([...textFields, { name: 'file', filename, data }]),
      ),
    ),
    ...HOSTILE_FILE_NAMES.map((filename) =>
      raw(
        'multipart: hostile name',
        `multipart: file named ${JSON.stringify(filename.slice(0, 40))}`,
        formType,
        multipart([...textFields, textFile(filename)]),
      ),
    ),
    raw(
      'multipart: duplicates',
      'multipart: two files',
      formType,
      multipart([...textFields, textFile('a.txt'), textFile('b.txt')]),
    ),
    raw(
      'multipart: duplicates',
      'multipart: duplicate fields',
      formType,
      multipart([
        ...textFields,
        ...textFields.map((p) => ({ ...p, data: 'x' })),
        textFile('d.txt'),
      ]),
    ),
    raw(
      'multipart: duplicates',
      'multipart: 200 fields',
      formType,
      multipart(Array.from({ length: 200 }, (_, i) => ({ name: `f${i}`, data: 'x' }))),
    ),
    raw(
      'multipart: prototype',
      'multipart: __proto__ field',
      formType,
      multipart([{ name: '__proto__', data: 'x' }, ...textFields, textFile('p.txt')]),
    ),
    raw(
      'multipart: prototype',
      'multipart: constructor file',
      formType,
      multipart([...textFields, { ...textFile('c.txt'), name: 'constructor' }]),
    ),
    raw(
      'multipart: prototype',
      'multipart: bad JSON field',
      formType,
      multipart([{ name: first, contentType: J, data: '{bad' }, textFile('j.txt')]),
    ),
    // url-encoded oddities, other types
    raw('form', 'form: bad escapes', 'application/x-www-form-urlencoded', '%&%zz=%E0%A4%A&=&&'),
    raw(
      'form',
      'form: prototype keys and duplicates',
      'application/x-www-form-urlencoded',
      `__proto__[role]=operator&constructor[prototype][x]=1&${first}=a&${first}=b&${first}[x]=1`,
    ),
    raw('form', 'form: UTF-16 charset', 'application/x-www-form-urlencoded; charset=utf-16', 'a=1'),
    raw('other type', 'text/plain', 'text/plain', 'just words'),
    raw('other type', 'unknown content type', 'application/x-inkwell-unknown', 'x'),
    raw('other type', 'malformed content type', ';;;/ =', 'x'),
    raw('other type', 'no content type', undefined, 'x'),
  ];
}

/** Malformed values for a path parameter (plus, separately, a valid one). */
export const HOSTILE_PATH_VALUES = [
  '-1',
  '0',
  '1.5',
  '1e99',
  '9'.repeat(40),
  'abc',
  '%2E%2E%2F%2E%2E%2Fetc',
  '%00',
  '%',
  '%E0%A4%A',
  '%F0%9F%92%A9',
  "1'--",
  'a'.repeat(4000),
];

/** Malformed query strings, duplicated and nested keys included. */
export const HOSTILE_QUERIES = [
  '?format=%',
  '?format=text&format=pdf',
  '?format[]=text',
  '?a[b][c][d]=1',
  '?__proto__[role]=operator&constructor[prototype][x]=1',
  `?${'x=1&'.repeat(1000)}`,
  '?%zz=%E0%A4%A',
  `?format=${'x'.repeat(5000)}`,
];
