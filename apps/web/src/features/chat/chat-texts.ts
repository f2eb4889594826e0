/** The chat's own texts (spec §4), shared by a reply and a question about a file. */
export const LOADING_TEXT = 'Loading...';
export const NO_RESPONSE = 'No detailed response available.';
