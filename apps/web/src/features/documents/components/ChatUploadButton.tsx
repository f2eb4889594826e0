import { lazy, Suspense, useRef, useState } from 'react';
import { TooltipIconButton } from '../../../components/ui/TooltipIconButton';
import AttachFile from '@mui/icons-material/AttachFile';
import type { Feedback } from '../../../components/ui/FeedbackSnackbar';
import { useHasBeenTrue } from '../../../lib/use-has-been-true';
import { UPLOAD_ACCEPT, validateUpload } from '../../../lib/validate-upload';
import type { DocumentAction } from '../document-actions';

// The snackbar loads with the first rejected file, outside what `/` loads to render.
const FeedbackSnackbar = lazy(() =>
  import('../../../components/ui/FeedbackSnackbar').then((m) => ({ default: m.FeedbackSnackbar })),
);
const SelectFileActionDialog = lazy(() =>
  import('./SelectFileActionDialog').then((m) => ({ default: m.SelectFileActionDialog })),
);

/**
 * The chat's upload button: a file checked per spec §5 (input cleared on rejection), then
 * 'Select Action for file'. The picked file is sent with the action; it is not stored.
 */
export function ChatUploadButton({
  disabled,
  unavailable,
  onAction,
}: {
  disabled: boolean;
  /** Actions shown disabled, with their reason (no model can serve them now). */
  unavailable?: Partial<Record<DocumentAction, string>>;
  onAction: (action: DocumentAction, source: { fileName: string; file: File }) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const snackbarUsed = useHasBeenTrue(feedback !== null);

  function pick(chosen: File | undefined) {
    if (!chosen) return;
    const problem = validateUpload(chosen);
    if (input.current) input.current.value = '';
    if (problem) setFeedback({ message: problem, severity: 'error' });
    else setFile(chosen);
  }

  return (
    <>
      <input
        ref={input}
        type="file"
        hidden
        accept={UPLOAD_ACCEPT}
        aria-label="Choose a document"
        data-testid="chat-file-input"
        onChange={(e) => pick(e.target.files?.[0])}
      />
      <TooltipIconButton
        title="Upload file"
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        <AttachFile />
      </TooltipIconButton>
      {file && (
        <Suspense fallback={null}>
          <SelectFileActionDialog
            fileName={file.name}
            unavailable={unavailable}
            onClose={() => setFile(null)}
            onSelect={(action) => {
              setFile(null);
              onAction(action, { fileName: file.name, file });
            }}
          />
        </Suspense>
      )}
      {snackbarUsed && (
        <Suspense fallback={null}>
          <FeedbackSnackbar feedback={feedback} onClose={() => setFeedback(null)} />
        </Suspense>
      )}
    </>
  );
}
