import { lazy, Suspense, useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DeleteSweep from '@mui/icons-material/DeleteSweep';
import type { FileItem } from '@inkwell/contract';
import { FeedbackSnackbar } from '../../../components/ui/FeedbackSnackbar';
import { filesQuestion } from '../../../lib/files-question';
import { useMyFiles } from '../api/get-my-files';
import {
  isDocumentAction,
  type FileDocumentAction,
  type FileMenuAction,
  type UnavailableActions,
} from '../file-menu-actions';
import { useFileCommands } from '../hooks/use-file-commands';
import { FileList } from './FileList';
import { FileMenu } from './FileMenu';

const FilePreviewDialog = lazy(() =>
  import('./FilePreviewDialog').then((m) => ({ default: m.FilePreviewDialog })),
);
const RenameFileDialog = lazy(() =>
  import('./RenameFileDialog').then((m) => ({ default: m.RenameFileDialog })),
);
const ConfirmDeleteDialog = lazy(() =>
  import('./ConfirmDeleteDialog').then((m) => ({ default: m.ConfirmDeleteDialog })),
);

type Dialog =
  { kind: 'preview' | 'rename' | 'delete'; file: FileItem; error?: string } | { kind: 'deleteAll' };

/** The file list with its context menu and dialogs (used by the file drawer and the MyFiles panel). */
export function FileManager({
  menu,
  dense,
  deleteAllButton,
  pickable,
  unavailable,
  onDocumentAction,
}: {
  menu: FileMenuAction[];
  dense?: boolean;
  /** 'Delete All Files' under the list: deleting all is about the folder, not about one file. */
  deleteAllButton?: boolean;
  /** A checkbox per file picks it for Ask my files. */
  pickable?: boolean;
  unavailable?: UnavailableActions;
  /** Proofread, Sentiment Analysis, Summarize, Ask Questions, Translate: run by the routes. */
  onDocumentAction?: (action: FileDocumentAction, file: FileItem) => void;
}) {
  const files = useMyFiles();
  const commands = useFileCommands();
  const [menuFor, setMenuFor] = useState<{ file: FileItem; anchor: HTMLElement } | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  // Files picked for Ask my files follow renames, and leave when deleted.
  useEffect(() => {
    if (files.data) filesQuestion.sync(files.data.files);
  }, [files.data]);

  function select(action: FileMenuAction, file: FileItem) {
    setMenuFor(null);
    if (isDocumentAction(action)) onDocumentAction?.(action, file);
    else if (action === 'open') setDialog({ kind: 'preview', file });
    else if (action === 'download') void commands.download(file);
    else if (action === 'deleteAll') setDialog({ kind: 'deleteAll' });
    else setDialog({ kind: action, file });
  }

  const close = () => setDialog(null);
  return (
    <>
      <FileList
        files={files.data?.files}
        loading={files.isPending}
        error={files.isError}
        dense={dense}
        pickable={pickable}
        onOpen={(file) => setDialog({ kind: 'preview', file })}
        onMenu={(file, anchor) => setMenuFor({ file, anchor })}
      />
      {deleteAllButton && (files.data?.files.length ?? 0) > 0 && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
          <Button
            size="small"
            color="error"
            startIcon={<DeleteSweep />}
            onClick={() => setDialog({ kind: 'deleteAll' })}
          >
            Delete All Files
          </Button>
        </Box>
      )}
      <FileMenu
        anchor={menuFor?.anchor ?? null}
        fileName={menuFor?.file.file_name ?? ''}
        actions={menu.filter((a) => !isDocumentAction(a) || onDocumentAction)}
        unavailable={unavailable}
        onSelect={(a) => menuFor && select(a, menuFor.file)}
        onClose={() => setMenuFor(null)}
      />
      <Suspense fallback={null}>
        {dialog?.kind === 'preview' && <FilePreviewDialog file={dialog.file} onClose={close} />}
        {dialog?.kind === 'rename' && (
          <RenameFileDialog
            fileName={dialog.file.file_name}
            busy={commands.busy}
            serverError={dialog.error}
            onClose={close}
            onRename={async (name) => {
              const error = await commands.rename(dialog.file, name);
              setDialog(error ? { ...dialog, error } : null);
            }}
          />
        )}
        {(dialog?.kind === 'delete' || dialog?.kind === 'deleteAll') && (
          <ConfirmDeleteDialog
            fileName={dialog.kind === 'delete' ? dialog.file.file_name : undefined}
            busy={commands.busy}
            onClose={close}
            onConfirm={async () => {
              close();
              await (dialog.kind === 'delete'
                ? commands.remove(dialog.file)
                : commands.removeAll());
            }}
          />
        )}
      </Suspense>
      <FeedbackSnackbar feedback={commands.feedback} onClose={commands.clearFeedback} />
    </>
  );
}
