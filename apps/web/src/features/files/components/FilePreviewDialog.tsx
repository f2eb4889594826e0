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
import { PREVIEW_ZOOM, type FileItem } from '@inkwell/contract';
import { filePreviewQuery } from '../api/get-file-preview';
import { PreviewBody } from './PreviewBody';

const PdfPreview = lazy(() => import('./PdfPreview').then((m) => ({ default: m.PdfPreview })));

export const UNSUPPORTED = 'Unsupported file type';

/** 'File Preview': a zoom slider (10–40, default 16), a spinner while loading, then the content. */
export function FilePreviewDialog({ file, onClose }: { file: FileItem; onClose: () => void }) {
  const [zoom, setZoom] = useState<number>(PREVIEW_ZOOM.default);
  const preview = useQuery(filePreviewQuery(file.id));
  const spinner = (
    <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
      <CircularProgress aria-label="Loading preview" />
    </Box>
  );
  let body;
  if (preview.isPending) body = spinner;
  else if (preview.isError) body = <Typography color="error">{UNSUPPORTED}</Typography>;
  else if (preview.data.kind === 'pdf') {
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
      <DialogContent dividers sx={{ minHeight: 200 }}>
        {body}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
