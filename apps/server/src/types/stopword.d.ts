// stopword 3 ships no types: each export is a language's list (ISO 639-3 name), e.g. `eng`.
declare module 'stopword' {
  const lists: Record<string, string[] | undefined>;
  export = lists;
}
