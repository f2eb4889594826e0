/**
 * A table's rows (csv, an xlsx sheet) within the character cap, counted as the text they make:
 * cells joined by tabs, rows by newlines. The cap held for the text alone before, so a small
 * xlsx repeating one shared string kept 150 M characters of rows (posted by the reader's worker,
 * cached in the database); now rows never hold more than their text. The row that reaches the
 * cap is cut there, as the text is, and no row follows it.
 */
export class TableRows {
  readonly rows: string[][] = [];
  /** The cap was reached: a row was cut or left out. */
  full = false;
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  /** Adds a row; false once the cap is reached (this row cut or left out: callers stop). */
  add(cells: string[]): boolean {
    const newline = this.rows.length > 0 ? 1 : 0;
    let room = this.maxChars - this.chars - newline;
    // Summed, not joined: a row of 500 references to one long string would be a huge join.
    const length = cells.reduce((n, cell) => n + cell.length, Math.max(0, cells.length - 1));
    if (length <= room) {
      this.rows.push(cells);
      this.chars += newline + length;
      return true;
    }
    this.full = true;
    if (room <= 0) return false;
    const cut: string[] = [];
    for (const [i, cell] of cells.entries()) {
      if (i > 0 && room-- <= 0) break; // the tab before this cell
      cut.push(cell.slice(0, room));
      room -= cut[i]!.length;
    }
    this.rows.push(cut);
    this.chars = this.maxChars;
    return false;
  }

  /** The text of the rows, as the reader shows a table. */
  text(): string {
    return this.rows.map((cells) => cells.join('\t')).join('\n');
  }
}
