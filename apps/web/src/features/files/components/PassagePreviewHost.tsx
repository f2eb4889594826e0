import { lazy, Suspense } from 'react';
import type { FileItem } from '@inkwell/contract';
import { passagePreview, usePassagePreview } from '../../../lib/passage-preview';

const FilePreviewDialog = lazy(() =>
  import('./FilePreviewDialog').then((m) => ({ default: m.FilePreviewDialog })),
);

/** The extension a file keeps through renames: its type for the preview. */
const typeOf = (fileName: string) => fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();

/**
 * The preview a source chip opens (lib/passage-preview.ts), at the cited passage. Mounted once by
 * the routes; the key makes each chip open its own dialog, at its own passage.
 */
export function PassagePreviewHost() {
  const target = usePassagePreview();
  if (!target) return null;
  return (
    <Suspense fallback={null}>
      <FilePreviewDialog
        key={`${target.fileId}-${target.start}-${target.end}`}
        file={{
          id: target.fileId,
          file_name: target.fileName,
          type: typeOf(target.fileName) as FileItem['type'],
        }}
        passage={{ where: target.where, start: target.start, end: target.end }}
        onClose={passagePreview.close}
      />
    </Suspense>
  );
}
