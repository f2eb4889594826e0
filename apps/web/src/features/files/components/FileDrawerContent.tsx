import { useRef } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CloudUpload from '@mui/icons-material/CloudUpload';
import type { FileItem } from '@inkwell/contract';
import { UPLOAD_ACCEPT } from '../../../lib/validate-upload';
import { useMyFiles } from '../api/get-my-files';
import { FULL_MENU, type FileDocumentAction, type UnavailableActions } from '../file-menu-actions';
import { useUpload } from '../hooks/use-upload';
import { FileManager } from './FileManager';
import { StorageUsage } from './StorageUsage';
import { UploadStatusDialog } from './UploadStatusDialog';

/** The body of the file drawer: Upload File, storage used, and the file list. */
export function FileDrawerContent({
  unavailable,
  onDocumentAction,
}: {
  unavailable?: UnavailableActions;
  onDocumentAction?: (action: FileDocumentAction, file: FileItem) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const files = useMyFiles();
  const { status, upload, clear } = useUpload();
  return (
    <Box>
      <input
        ref={input}
        type="file"
        hidden
        accept={UPLOAD_ACCEPT}
        aria-label="Choose a file to upload"
        data-testid="drawer-file-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void upload(file);
        }}
      />
      <Button
        variant="contained"
        startIcon={<CloudUpload />}
        onClick={() => input.current?.click()}
        fullWidth
      >
        Upload File
      </Button>
      {files.data && <StorageUsage used={files.data.used_bytes} quota={files.data.quota_bytes} />}
      <FileManager menu={FULL_MENU} unavailable={unavailable} onDocumentAction={onDocumentAction} />
      {status && <UploadStatusDialog status={status} onClose={clear} />}
    </Box>
  );
}
