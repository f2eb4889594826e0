import { ALLOWED_EXTENSIONS, MAX_FILE_NAME_LENGTH, type FileExtension } from '@inkwell/contract';

/** Lower-case allowed extension of a file name, or null. */
export function allowedExtension(name: string): FileExtension | null {
  const ext = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  return (ALLOWED_EXTENSIONS as readonly string[]).includes(ext ?? '')
    ? (ext as FileExtension)
    : null;
}

// eslint-disable-next-line no-control-regex -- control characters are what we strip
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** The name part without `.ext` (case-insensitive), e.g. "report" of "report.PDF". */
export function baseName(name: string, ext: FileExtension): string {
  return name.replace(new RegExp(`\\.${ext}$`, 'i'), '');
}

/** A safe base name from what the browser sent: no directories, no control characters. */
export function cleanUploadBase(raw: string, ext: FileExtension): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  const base = baseName(last.replace(CONTROL, ''), ext).trim();
  return fitBase(base || 'file', ext, '');
}

/** Cuts the base so `base + suffix + .ext` fits MAX_FILE_NAME_LENGTH. */
function fitBase(base: string, ext: FileExtension, suffix: string): string {
  const room = MAX_FILE_NAME_LENGTH - suffix.length - ext.length - 1;
  return [...base].slice(0, room).join('').trimEnd();
}

/** `base.ext`, or the first free `base (n).ext` when that is taken. */
export function uniqueName(base: string, ext: FileExtension, taken: Set<string>): string {
  const plain = `${base}.${ext}`;
  if (!taken.has(plain)) return plain;
  for (let n = 1; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${fitBase(base, ext, suffix)}${suffix}.${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** A lone half of a surrogate pair → U+FFFD, as String.prototype.toWellFormed (ES2024) does. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * RFC 6266 Content-Disposition: an ASCII fallback `filename` for old clients plus `filename*`
 * in UTF-8 (RFC 5987) so non-ASCII names survive. A name with a lone surrogate (JSON can carry
 * one) has no UTF-8 form: encodeURIComponent threw on it, so it gets U+FFFD in its place.
 */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name.replace(LONE_SURROGATE, '\ufffd')).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
