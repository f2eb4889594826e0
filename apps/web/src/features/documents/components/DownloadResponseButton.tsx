import { lazy, Suspense, useState } from 'react';
import { TooltipIconButton } from '../../../components/ui/TooltipIconButton';
import FileDownload from '@mui/icons-material/FileDownload';
import { downloadBlob } from '../../../lib/download-blob';
import { downloadResponse } from '../api/download-response';

const DownloadResponseDialog = lazy(() =>
  import('./DownloadResponseDialog').then((m) => ({ default: m.DownloadResponseDialog })),
);

/**
 * Under an ai reply: save it as txt, pdf or docx ('Download File'). Failures are logged only.
 * `label` names what is saved when it is not the reply (a proofread's corrected text).
 */
export function DownloadResponseButton({
  text,
  label = 'Download reply',
}: {
  text: string;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <TooltipIconButton
        title={label === 'Download reply' ? 'Download' : label}
        label={label}
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
