import type { MyFilesResponse } from '@inkwell/contract';

/**
 * Waits until the search index has read the files, as a person sees it: the file list shows none
 * of them (of `ids`, or all) still 'reading'. `list` fetches the list; it is asked every `everyMs`.
 * Resolves with the number of files in the list.
 */
export async function untilSearchable(
  list: () => Promise<MyFilesResponse>,
  { ids, everyMs = 20 }: { ids?: number[]; everyMs?: number } = {},
): Promise<number> {
  const wanted = ids && new Set(ids);
  for (;;) {
    const { files } = await list();
    const watched = wanted ? files.filter((f) => wanted.has(f.id)) : files;
    if (watched.every((f) => f.search !== 'reading')) return files.length;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
