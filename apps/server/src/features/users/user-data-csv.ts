/** RFC 4180 CSV: fields quoted when needed, quotes doubled, CRLF line ends. */
export function toCsv(rows: (string | number)[][]): string {
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

function csvField(value: string | number): string {
  let s = String(value);
  // A leading =, +, - or @ would run as a formula when the export is opened in a spreadsheet.
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
