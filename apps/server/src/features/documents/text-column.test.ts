import { describe, expect, it } from 'vitest';
import { pickTextColumn } from './text-column';

/**
 * Which cells are numbers. A hostile cell ("1", 200,000 spaces, "x") took the old pattern
 * (`^\s*[-+]?[\d.,%$€£\s:/-]+\s*$`) quadratic time, about 100 s here (a 1 MB cell: most of an
 * hour), on the thread that picks sentiment's column: it is one pass now, and only so does the
 * first test end within its time limit. The answers for usual cells stay as they were.
 */
describe('the numeric cells of a table', () => {
  it('picks the text column in one pass over a cell of a digit, 200,000 spaces and a letter', () => {
    const hostile = `1${' '.repeat(200_000)}x`;
    const pick = pickTextColumn([
      ['id', 'comment'],
      ['7', hostile],
      ['8', 'fine, thanks'],
    ]);
    expect(pick).toMatchObject({ index: 1, name: 'comment', dataStart: 1 });
  });

  it('still takes a first row that starts with an amount as data, not a header', () => {
    const rows = [
      [' +1 200,50 € ', 'ok'],
      ['-3.5%', 'the staff were lovely and kind'],
      ['12:30 15/01/2024', 'cold room, slow service, never again'],
    ];
    expect(pickTextColumn(rows)).toMatchObject({ index: 1, name: 'Column 2', dataStart: 0 });
  });
});
