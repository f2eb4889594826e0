import DialogContentText from '@mui/material/DialogContentText';
import { FormDialog } from '../../../components/ui/FormDialog';

/** 'Confirm Deletion' of one file (`fileName`) or, without it, of all files. */
export function ConfirmDeleteDialog({
  fileName,
  busy,
  onConfirm,
  onClose,
}: {
  fileName?: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <FormDialog
      id="confirm-delete"
      title="Confirm Deletion"
      describedBy="confirm-delete-text"
      onClose={onClose}
      primary={{
        label: fileName ? 'Delete' : 'Delete All',
        color: 'error',
        disabled: busy,
        onClick: onConfirm,
      }}
    >
      <DialogContentText id="confirm-delete-text">
        {fileName
          ? `Delete ${fileName}? This cannot be undone.`
          : 'Delete all your files? This cannot be undone.'}
      </DialogContentText>
    </FormDialog>
  );
}
