import { lazy, Suspense, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Slider from '@mui/material/Slider';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { ALLOWED_EXTENSIONS, PREVIEW_ZOOM, type FileItem } from '@inkwell/contract';
import { ApiError } from '../../../lib/api-client';
import { API_MESSAGES } from '../../../lib/api-messages';
import { filePreviewQuery, pdfTextQuery } from '../api/get-file-preview';
import { PassageText, type Passage } from './PassageText';
import { PreviewBody } from './PreviewBody';

const PdfPreview = lazy(() => import('./PdfPreview').then((m) => ({ default: m.PdfPreview })));

export const UNSUPPORTED = 'Unsupported file type';

/**
 * Why a preview failed. 'Unsupported file type' only when the type really is unsupported: a type
 * the app cannot preview, or the server saying so (415, or its `Unsupported file type` error).
 * Anything else (no connection, a missing file, a server fault) gets the general text of spec §8
 * for that failure, with the server's own error under it when it sent one.
 */
export function previewFailure(err: unknown): { message: string; detail?: string } {
  if (!(err instanceof ApiError)) return { message: API_MESSAGES.other };
  if (err.status === 415 || err.serverMessage?.startsWith(UNSUPPORTED)) {
    return { message: UNSUPPORTED };
  }
  const detail =
    err.serverMessage && err.serverMessage !== err.message ? err.serverMessage : undefined;
  return { message: err.message, detail };
}

const isPreviewable = (type: string) => (ALLOWED_EXTENSIONS as readonly string[]).includes(type);

/**
 * 'File Preview': a zoom slider (10–40, default 16), a spinner while loading, then the content.
 * Opened at a `passage` (a source of an answer across files), it shows the file's extracted text
 * with the passage marked; 'Show passage' switches between that and the usual preview.
 */
export function FilePreviewDialog({
  file,
  passage,
  onClose,
}: {
  file: Pick<FileItem, 'id' | 'file_name' | 'type'>;
  passage?: Passage;
  onClose: () => void;
}) {
  const [zoom, setZoom] = useState<number>(PREVIEW_ZOOM.default);
  const previewable = isPreviewable(file.type);
  const [atPassage, setAtPassage] = useState(Boolean(passage));
  const preview = useQuery({ ...filePreviewQuery(file.id), enabled: previewable && !atPassage });
  // A pdf can also be shown as its text, page by page: what the AI actions read, and which
  // scanned pages were read by OCR.
  const [asText, setAsText] = useState(false);
  const isPdf = previewable && !atPassage && preview.data?.kind === 'pdf';
  // The extracted text (every type answers it): a pdf's pages, or the text a passage is in.
  const pdfText = useQuery({
    ...pdfTextQuery(file.id),
    enabled: previewable && ((isPdf && asText) || atPassage),
  });
  const spinner = (
    <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
      <CircularProgress aria-label="Loading preview" />
    </Box>
  );
  let body;
  if (!previewable) body = <Typography color="error">{UNSUPPORTED}</Typography>;
  else if (atPassage && passage) {
    if (pdfText.isPending) body = spinner;
    else if (pdfText.isError) body = <PreviewFailure err={pdfText.error} />;
    else body = <PassageText text={pdfText.data.text} passage={passage} zoom={zoom} />;
  } else if (preview.isPending) body = spinner;
  else if (preview.isError) {
    const { message, detail } = previewFailure(preview.error);
    body = (
      <Box role="alert">
        <Typography color="error">{message}</Typography>
        {detail && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {detail}
          </Typography>
        )}
      </Box>
    );
  } else if (preview.data.kind === 'pdf' && asText) {
    if (pdfText.isPending) body = spinner;
    else if (pdfText.isError)
      body = (
        <Typography role="alert" color="error">
          {previewFailure(pdfText.error).message}
        </Typography>
      );
    else body = <PreviewBody preview={pdfText.data} zoom={zoom} />;
  } else if (preview.data.kind === 'pdf') {
    body = (
      <Suspense fallback={spinner}>
        <PdfPreview data={preview.data.data} zoom={zoom} />
      </Suspense>
    );
  } else body = <PreviewBody preview={preview.data} zoom={zoom} />;

  return (
    <Dialog open onClose={onClose} aria-labelledby="preview-title" fullWidth maxWidth="md">
      <DialogTitle id="preview-title" sx={{ overflowWrap: 'anywhere' }}>
        {file.file_name}
      </DialogTitle>
      <Box sx={{ px: 3, display: 'flex', alignItems: 'center', gap: 2 }}>
        <Typography id="zoom-label" variant="body2">
          Zoom
        </Typography>
        <Slider
          value={zoom}
          min={PREVIEW_ZOOM.min}
          max={PREVIEW_ZOOM.max}
          onChange={(_e, v) => setZoom(v as number)}
          valueLabelDisplay="auto"
          slotProps={{ input: { 'aria-labelledby': 'zoom-label' } }}
          sx={{ maxWidth: 240 }}
        />
      </Box>
      <DialogContent
        dividers
        sx={{ minHeight: 200 }}
        // The pdf's pages scroll here (the other previews scroll inside PreviewBody, which is
        // focusable itself): keyboard users reach and scroll them through this region.
        // So is the text a passage is marked in.
        {...((isPdf && !asText) || atPassage
          ? { tabIndex: 0, role: 'region', 'aria-label': `Preview of ${file.file_name}` }
          : {})}
      >
        {body}
      </DialogContent>
      <DialogActions>
        {passage && (
          <Button onClick={() => setAtPassage((p) => !p)} aria-pressed={atPassage}>
            Show passage
          </Button>
        )}
        {isPdf && (
          <Button onClick={() => setAsText((t) => !t)} aria-pressed={asText}>
            Show text
          </Button>
        )}
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

function PreviewFailure({ err }: { err: unknown }) {
  const { message, detail } = previewFailure(err);
  return (
    <Box role="alert">
      <Typography color="error">{message}</Typography>
      {detail && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {detail}
        </Typography>
      )}
    </Box>
  );
}
