import { ActionListDialog } from '../../../components/ui/ActionListDialog';
import { ACTION_LABELS, DOCUMENT_ACTIONS, type DocumentAction } from '../document-actions';

const CHOICES = DOCUMENT_ACTIONS.map((a) => ({ key: a, label: ACTION_LABELS[a] }));

/** 'Select Action for file': what to do with a file picked from the chat's upload button. */
export function SelectFileActionDialog({
  fileName,
  onSelect,
  onClose,
}: {
  fileName: string;
  onSelect: (action: DocumentAction) => void;
  onClose: () => void;
}) {
  return (
    <ActionListDialog
      id="file-action"
      title="Select Action for file"
      subject={fileName}
      listLabel="Actions"
      choices={CHOICES}
      onSelect={onSelect}
      onClose={onClose}
    />
  );
}
