import { useRef } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import CloudUpload from '@mui/icons-material/CloudUpload';
import type { FileItem } from '@inkwell/contract';
import { UPLOAD_ACCEPT } from '../../../lib/validate-upload';
import { useMyFiles } from '../api/get-my-files';
import { FULL_MENU, type FileDocumentAction, type UnavailableActions } from '../file-menu-actions';
import { useUpload } from '../hooks/use-upload';
import { FileManager } from './FileManager';
import { StorageUsage } from './StorageUsage';
import { UploadStatusList } from './UploadStatusList';

/**
 * The body of the file drawer: Upload File (several files at once), their upload status, storage
 * used, and the file list.
 */
export function FileDrawerContent({
  unavailable,
  onDocumentAction,
}: {
  unavailable?: UnavailableActions;
  onDocumentAction?: (action: FileDocumentAction, file: FileItem) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const files = useMyFiles();
  const { statuses, upload, dismiss } = useUpload();
  return (
    <Box>
      <input
        ref={input}
        type="file"
        hidden
        multiple
        accept={UPLOAD_ACCEPT}
        aria-label="Choose files to upload"
        data-testid="drawer-file-input"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length) void upload(files);
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
      <UploadStatusList statuses={statuses} onDismiss={dismiss} />
      {files.data && <StorageUsage used={files.data.used_bytes} quota={files.data.quota_bytes} />}
      {Boolean(files.data?.files.length) && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Tick files to ask only them with Ask my files; with none ticked, it asks them all.
        </Typography>
      )}
      <FileManager
        menu={FULL_MENU}
        deleteAllButton
        pickable
        unavailable={unavailable}
        onDocumentAction={onDocumentAction}
      />
    </Box>
  );
}
