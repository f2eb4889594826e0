import { lazy, Suspense, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import FileDownload from '@mui/icons-material/FileDownload';
import { downloadBlob } from '../../../lib/download-blob';
import { downloadResponse } from '../api/download-response';

const DownloadResponseDialog = lazy(() =>
  import('./DownloadResponseDialog').then((m) => ({ default: m.DownloadResponseDialog })),
);

/** Under an ai reply: save it as txt, pdf or docx ('Download File'). Failures are logged only. */
export function DownloadResponseButton({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip slotProps={{ popper: { disablePortal: true } }} title="Download">
        <IconButton size="small" aria-label="Download reply" onClick={() => setOpen(true)}>
          <FileDownload fontSize="small" />
        </IconButton>
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <DownloadResponseDialog
            onClose={() => setOpen(false)}
            onDownload={(fileName, format) => {
              setOpen(false);
              downloadResponse(text, format)
                .then((blob) => downloadBlob(blob, fileName))
                .catch(() => undefined);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
