// The personal dictionary's public face: its routes, and the words proofreading reads.
export { dictionaryRoutes } from './dictionary.routes';
export { personalWords } from './dictionary.service';
