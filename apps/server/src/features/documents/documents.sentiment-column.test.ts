import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentimentResponseSchema } from '@inkwell/contract';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { makeXlsx } from '../files/testing';
import { postForm } from './test-helpers';

/**
 * Which column sentiment reads (issue 40), on a csv shaped like a publisher's title list: a
 * category column ("CONTENT TYPE": Journals, SIG Newsletters) beside the titles, an ISSN and a
 * year. The titles have the most words per cell: they are scored, and the answer names them;
 * `column` picks another, by name in any case; an unknown one is a 400 that changes nothing.
 */
const TITLES = [
  'Communications of the ACM: a wonderful and inspiring read',
  'Journal of Data and Information Quality',
  'ACM Transactions on Graphics, sadly a terrible mess this year',
  'ACM SIGMOD Record',
  'ACM Computing Surveys',
  'Interactions: the best magazine for designers',
];
const TYPES = ['Journals', 'Journals', 'Journals', 'SIG Newsletters', 'Journals', 'Magazines'];
const csv =
  'TITLE,CONTENT TYPE,ISSN,YEAR\n' +
  TITLES.map((t, i) => `"${t}",${TYPES[i]},0001-078${i},${2000 + i}`).join('\n') +
  '\n';

describe('the column sentiment reads', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = (await registerUser(server)).token;
  });
  afterAll(async () => server?.close());

  const analyse = (
    fields: Record<string, string> = {},
    name = 'titles.csv',
    bytes: Uint8Array | string = csv,
  ) => postForm(server, '/api/bulk-sentiment-analysis', token, { file: { name, bytes }, fields });

  it('scores the column with the most words per cell, not the category, and names it', async () => {
    const res = await analyse();
    expect(res.status).toBe(200);
    const body = sentimentResponseSchema.parse(await res.json());
    expect(body.column).toBe('TITLE');
    expect(body.column_choices).toEqual(['TITLE', 'CONTENT TYPE', 'ISSN', 'YEAR']);
    expect(body.items.map((i) => i.text)).toEqual(TITLES);
    expect(body.items[0]!.label).toBe('positive');
    expect(body.items[2]!.label).toBe('negative');
  });

  it('scores the column asked for, named in any case', async () => {
    const body = sentimentResponseSchema.parse(
      await (await analyse({ column: 'content type' })).json(),
    );
    expect(body.column).toBe('CONTENT TYPE');
    expect(body.items.map((i) => i.text)).toEqual(TYPES);
  });

  it('answers 400 for a column the table does not have', async () => {
    const res = await analyse({ column: 'AUTHOR' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'Unknown column "AUTHOR". Columns: TITLE, CONTENT TYPE, ISSN, YEAR',
    });
    const notTable = await analyse({ column: 'TITLE' }, 'notes.txt', 'I love it.');
    expect(notTable.status).toBe(400);
  });

  it('a workbook: the column named in every sheet that has it', async () => {
    const bytes = await makeXlsx({
      Y2023: [['TITLE', 'CONTENT TYPE'], ...TITLES.slice(0, 3).map((t, i) => [t, TYPES[i]!])],
      Y2024: [['CONTENT TYPE', 'TITLE'], ...TITLES.slice(3).map((t, i) => [TYPES[i + 3]!, t])],
    });
    const body = sentimentResponseSchema.parse(
      await (await analyse({}, 'titles.xlsx', bytes)).json(),
    );
    expect(body.columns).toEqual([
      { sheet: 'Y2023', column: 'TITLE' },
      { sheet: 'Y2024', column: 'TITLE' },
    ]);
    const types = sentimentResponseSchema.parse(
      await (await analyse({ column: 'CONTENT TYPE' }, 'titles.xlsx', bytes)).json(),
    );
    expect(types.items.map((i) => i.text)).toEqual(TYPES);
  });
});
