export { configureReader, extractText, warmReader } from './extract';
export { decodeText } from './text-encoding';
export {
  DEFAULT_LIMITS,
  DocumentReadError,
  READER_VERSION,
  type ExtractInput,
  type ExtractResult,
  type ReaderLimits,
  type TextUnit,
  type UnitKind,
} from './types';
