import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { LanguageSelect } from './LanguageSelect';

/** 'Select Translation Language': a target language is required (spec §5). */
export function TranslationLanguageDialog({
  fileName,
  onConfirm,
  onClose,
}: {
  fileName: string;
  onConfirm: (language: string) => void;
  onClose: () => void;
}) {
  const [language, setLanguage] = useState('');
  return (
    <Dialog open onClose={onClose} aria-labelledby="language-dialog-title" fullWidth maxWidth="xs">
      <DialogTitle id="language-dialog-title">Select Translation Language</DialogTitle>
      <DialogContent>
        <DialogContentText>{`Translate ${fileName} into:`}</DialogContentText>
        <LanguageSelect
          id="translation-language"
          label="Target language"
          value={language}
          onChange={setLanguage}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={!language} onClick={() => onConfirm(language)}>
          Translate
        </Button>
      </DialogActions>
    </Dialog>
  );
}
