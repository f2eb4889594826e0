import { lazy, Suspense, useState } from 'react';
import { TooltipIconButton } from '../../../components/ui/TooltipIconButton';
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
      <TooltipIconButton
        title="Download"
        label="Download reply"
        size="small"
        onClick={() => setOpen(true)}
      >
        <FileDownload fontSize="small" />
      </TooltipIconButton>
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
