import { ActionListDialog } from '../../../components/ui/ActionListDialog';
import { ACTION_LABELS, DOCUMENT_ACTIONS, type DocumentAction } from '../document-actions';

/**
 * 'Select Action for file': what to do with a file picked from the chat's upload button. Actions
 * that need a model none can serve now are shown disabled with the reason, as in the file menu.
 */
export function SelectFileActionDialog({
  fileName,
  unavailable = {},
  onSelect,
  onClose,
}: {
  fileName: string;
  unavailable?: Partial<Record<DocumentAction, string>>;
  onSelect: (action: DocumentAction) => void;
  onClose: () => void;
}) {
  const choices = DOCUMENT_ACTIONS.map((a) => ({
    key: a,
    label: ACTION_LABELS[a],
    unavailable: unavailable[a],
  }));
  return (
    <ActionListDialog
      id="file-action"
      title="Select Action for file"
      subject={fileName}
      listLabel="Actions"
      choices={choices}
      onSelect={onSelect}
      onClose={onClose}
    />
  );
}
