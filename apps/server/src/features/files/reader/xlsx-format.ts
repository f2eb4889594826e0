/** Built-in number formats that matter for how a value reads (ECMA-376 §18.8.30). */
const BUILTIN: Record<number, string> = {
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  14: 'yyyy-mm-dd',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'yyyy-mm-dd h:mm',
  37: '#,##0',
  38: '#,##0',
  39: '#,##0.00',
  40: '#,##0.00',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mm:ss.0',
};
// East Asian built-in date formats.
for (const id of [27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58])
  BUILTIN[id] = 'yyyy-mm-dd';

export const builtinFormat = (id: number): string | undefined => BUILTIN[id];

/**
 * The text a number shows under its format code, in a plain, locale-free form: dates as ISO
 * (2024-01-15, 2024-01-15 13:45, 13:45:30), percentages and fixed decimals as the format says,
 * anything else as Excel's General (up to 15 significant digits).
 */
export function formatNumber(value: number, code: string | undefined, date1904: boolean): string {
  const bare = (code ?? '')
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/General/gi, '');
  const section = bare.split(';')[0] ?? '';
  if (/[dmyhs]/i.test(section)) return formatDate(value, section, date1904);
  const decimals = /\.(0+)/.exec(section)?.[1]?.length;
  const percent = section.includes('%');
  const n = percent ? value * 100 : value;
  let text: string;
  if (section.includes(',') || decimals !== undefined) {
    const d = decimals ?? 0;
    text = section.includes(',')
      ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d })
      : n.toFixed(d);
  } else {
    text = general(n);
  }
  return percent ? `${text}%` : text;
}

function general(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  return String(Number(n.toPrecision(15)));
}

const pad = (n: number) => String(n).padStart(2, '0');

function formatDate(serial: number, section: string, date1904: boolean): string {
  const hasTime = /[hs]/i.test(section);
  const hasDate = /[dy]/i.test(section) || (/m/i.test(section) && !hasTime);
  // Serial 60 is Excel's 29 Feb 1900, a day that never was; serials after it count from 30 Dec.
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, serial < 60 ? 31 : 30);
  const ms = Math.round(serial * 86_400) * 1000; // Excel shows whole seconds, rounded
  const d = new Date(epoch + ms);
  if (Number.isNaN(d.getTime())) return general(serial);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  let time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  if (/s/i.test(section)) time += `:${pad(d.getUTCSeconds())}`;
  if (hasDate && hasTime) return `${date} ${time}`;
  return hasTime ? time : date;
}

/** A date written as an ISO string (`t="d"` cells): date only when it is midnight. */
export function formatIsoDate(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(:\d{2})?)?/.exec(iso);
  if (!m) return iso;
  if (!m[2] || (m[2] === '00:00' && (!m[3] || m[3] === ':00'))) return m[1]!;
  return `${m[1]} ${m[2]}${m[3] && m[3] !== ':00' ? m[3] : ''}`;
}

/** Undoes OOXML's `_xHHHH_` escapes of characters XML cannot carry (e.g. `_x000D_`). */
export const unescapeOoxml = (s: string) =>
  s.includes('_x')
    ? s.replace(/_x([0-9a-fA-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : s;
