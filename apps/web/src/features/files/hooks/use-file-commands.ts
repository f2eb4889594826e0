import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { FileItem } from '@inkwell/contract';
import type { Feedback } from '../../../components/ui/FeedbackSnackbar';
import { downloadBlob } from '../../../lib/download-blob';
import { deleteAllFiles } from '../api/delete-all-files';
import { deleteFile } from '../api/delete-file';
import { downloadFile } from '../api/download-file';
import { renameFile } from '../api/rename-file';

const reason = (err: unknown) => {
  const e = err as { serverMessage?: string; message?: string };
  return e.serverMessage ?? e.message ?? 'Unknown error';
};

/** Download, rename, delete and delete all, with their feedback (spec §8 wording). */
export function useFileCommands() {
  const queryClient = useQueryClient();
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['files'] });

  async function guarded(run: () => Promise<void>, failure: string): Promise<boolean> {
    setBusy(true);
    try {
      await run();
      return true;
    } catch (err) {
      setFeedback({ message: `${failure} ${reason(err)}`, severity: 'error' });
      return false;
    } finally {
      setBusy(false);
    }
  }

  return {
    feedback,
    clearFeedback: () => setFeedback(null),
    busy,
    download: (file: FileItem) =>
      guarded(async () => {
        const { blob, fileName } = await downloadFile(file.id, file.file_name);
        downloadBlob(blob, fileName);
      }, `Error downloading the file ${file.file_name}.`),
    /** Resolves to the server's error text on failure (shown in the dialog), null on success. */
    rename: async (file: FileItem, newName: string): Promise<string | null> => {
      setBusy(true);
      try {
        const { file: renamed } = await renameFile(file.id, newName);
        setFeedback({ message: `Renamed to ${renamed.file_name}.`, severity: 'success' });
        await refresh();
        return null;
      } catch (err) {
        return reason(err);
      } finally {
        setBusy(false);
      }
    },
    remove: (file: FileItem) =>
      guarded(async () => {
        await deleteFile(file.id);
        setFeedback({ message: `${file.file_name} deleted.`, severity: 'success' });
        await refresh();
      }, `Error deleting the file ${file.file_name}.`),
    removeAll: () =>
      guarded(async () => {
        await deleteAllFiles();
        setFeedback({ message: 'All files deleted.', severity: 'success' });
        await refresh();
      }, 'Failed to delete the files.'),
  };
}
