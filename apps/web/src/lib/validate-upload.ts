import {
  ALLOWED_EXTENSIONS,
  FILE_SIZE_LIMITS,
  fileSizeLimitText,
  type FileExtension,
} from '@inkwell/contract';

/** Client-side upload checks of spec §5 (the server checks again). */
export const UPLOAD_MESSAGES = {
  unsupported: 'Unsupported file type. Please select an allowed file.',
  tooLarge: 'File size exceeds the allowed limit.',
} as const;

export const UPLOAD_ACCEPT = ALLOWED_EXTENSIONS.map((e) => `.${e}`).join(',');

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Null when the file may be uploaded, otherwise the message to show. */
export function validateUpload(file: File): string | null {
  const ext = fileExtension(file.name);
  if (!(ALLOWED_EXTENSIONS as readonly string[]).includes(ext)) return UPLOAD_MESSAGES.unsupported;
  const type = ext as FileExtension;
  // The spec's text, then the number: "Text files can be at most 2 MB."
  if (file.size > FILE_SIZE_LIMITS[type]) {
    return `${UPLOAD_MESSAGES.tooLarge} ${fileSizeLimitText(type)}`;
  }
  return null;
}
