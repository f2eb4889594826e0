/**
 * The HTTP Link header (RFC 8288) as Lighthouse's LinkElements gatherer reads it: one reference per
 * rel value, with the target as written and its hreflang.
 */
export interface LinkHeaderRef {
  uri: string;
  rel: string;
  hreflang: string;
}

const LINK = /<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"(?:[^"\\]|\\.)*"|[^;,]*))?)*)/g;
const PARAM = /;\s*([^;,=\s]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^;,]*))?/g;

export function parseLinkHeader(value: string): LinkHeaderRef[] {
  const refs: LinkHeaderRef[] = [];
  for (const [, uri, params] of value.matchAll(LINK)) {
    const attrs: Record<string, string> = {};
    for (const [, name, raw] of (params ?? '').matchAll(PARAM)) {
      const v = (raw ?? '').trim();
      attrs[name!.toLowerCase()] = v.startsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;
    }
    for (const rel of (attrs.rel ?? '').split(/\s+/).filter(Boolean)) {
      refs.push({ uri: uri!.trim(), rel, hreflang: attrs.hreflang ?? '' });
    }
  }
  return refs;
}
