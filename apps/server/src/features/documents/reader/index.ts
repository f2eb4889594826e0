export { configureReader, extractText } from './extract';
export { traineddataFile } from './ocr-data';
export { decodeText } from './txt';
export {
  DEFAULT_LIMITS,
  DocumentReadError,
  type ExtractInput,
  type ExtractResult,
  type ReaderLimits,
  type TextUnit,
  type UnitKind,
} from './types';
