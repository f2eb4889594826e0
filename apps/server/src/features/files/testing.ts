export { makeDocx, makePdf, makePptx, makeXlsx } from './reader/test-fixtures';
export { registerWithId, uploadOk } from './test-helpers';
export { extractionPool } from './reader/extraction-pool';
export { makeScannedPdf } from './reader/scan-fixtures';
export { slowPdftotext } from './reader/slow-pdftotext.test-helper';
