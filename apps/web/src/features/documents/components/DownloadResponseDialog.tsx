import { useState } from 'react';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { DOWNLOAD_FORMATS, type DownloadFormat } from '@inkwell/contract';
import { FormDialog } from '../../../components/ui/FormDialog';

/** Spec §5: an empty name downloads as `downloaded_file.{format}`. */
export function downloadFileName(name: string, format: DownloadFormat): string {
  const base = name.trim().replace(/\.(txt|pdf|docx)$/i, '');
  return `${base || 'downloaded_file'}.${format}`;
}

/** 'Download File': a file name and a format (txt, pdf, docx). */
export function DownloadResponseDialog({
  onDownload,
  onClose,
}: {
  onDownload: (fileName: string, format: DownloadFormat) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const [format, setFormat] = useState<DownloadFormat>('txt');
  return (
    <FormDialog
      id="download-dialog"
      title="Download File"
      onClose={onClose}
      primary={{
        label: 'Download',
        onClick: () => onDownload(downloadFileName(name, format), format),
      }}
    >
      <TextField
        id="download-name"
        label="File name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="downloaded_file"
        fullWidth
        margin="normal"
      />
      <FormControl>
        <FormLabel id="download-format-label">Format</FormLabel>
        <RadioGroup
          row
          aria-labelledby="download-format-label"
          value={format}
          onChange={(e) => setFormat(e.target.value as DownloadFormat)}
        >
          {DOWNLOAD_FORMATS.map((f) => (
            <FormControlLabel key={f} value={f} control={<Radio />} label={f} />
          ))}
        </RadioGroup>
      </FormControl>
    </FormDialog>
  );
}
