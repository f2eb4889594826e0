import { useState } from 'react';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import MoreVert from '@mui/icons-material/MoreVert';
import type { FileItem } from '@inkwell/contract';
import { filesQuestion, useFilesQuestion } from '../../../lib/files-question';
import { FileSearchState } from './FileSearchState';
import { FileTypeIcon } from './FileTypeIcon';

export const FETCHING_FILES = 'Fetching files...';
export const EMPTY_FOLDER = 'Your folder is empty.';

/**
 * The user's files, each with its state in the search index. Double-click (or Enter) opens a
 * file; its menu opens from the ⋮ button, a right-click, or the context-menu key. `pickable`
 * adds a checkbox per file that picks it for Ask my files.
 */
export function FileList({
  files,
  loading,
  error,
  dense,
  pickable,
  onOpen,
  onMenu,
}: {
  files: FileItem[] | undefined;
  loading: boolean;
  error?: boolean;
  dense?: boolean;
  pickable?: boolean;
  onOpen: (file: FileItem) => void;
  onMenu: (file: FileItem, anchor: HTMLElement) => void;
}) {
  const [selected, setSelected] = useState<number | null>(null);
  const { picked } = useFilesQuestion();
  if (loading) {
    return (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 2 }}>
        <CircularProgress size={20} aria-hidden />
        <Typography variant="body2">{FETCHING_FILES}</Typography>
      </Box>
    );
  }
  if (error) {
    return (
      <Typography role="alert" variant="body2" color="error" sx={{ p: 2 }}>
        Your files could not be loaded.
      </Typography>
    );
  }
  if (!files || files.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
        {EMPTY_FOLDER}
      </Typography>
    );
  }
  return (
    <List dense={dense} aria-label="Files">
      {files.map((file) => (
        <ListItem
          key={file.id}
          disablePadding
          secondaryAction={
            <IconButton
              edge="end"
              aria-label={`Actions for ${file.file_name}`}
              aria-haspopup="menu"
              onClick={(e) => onMenu(file, e.currentTarget)}
            >
              <MoreVert />
            </IconButton>
          }
        >
          {pickable && (
            <Checkbox
              checked={picked.some((p) => p.id === file.id)}
              onChange={() => filesQuestion.toggle({ id: file.id, fileName: file.file_name })}
              slotProps={{ input: { 'aria-label': `Pick ${file.file_name} for Ask my files` } }}
              // The spec's blue is too dark to see ticked on the dark paper.
              sx={(t) => ({
                ml: -1,
                ...(t.palette.mode === 'dark'
                  ? { '&.Mui-checked': { color: t.palette.primary.light } }
                  : {}),
              })}
            />
          )}
          <ListItemButton
            selected={selected === file.id}
            onClick={(e) => {
              setSelected(file.id);
              if (e.detail === 0) onOpen(file); // keyboard activation (Enter / Space)
            }}
            onDoubleClick={() => onOpen(file)}
            onContextMenu={(e) => {
              e.preventDefault();
              onMenu(file, e.currentTarget);
            }}
          >
            <ListItemIcon sx={{ minWidth: 36 }}>
              <FileTypeIcon type={file.type} />
            </ListItemIcon>
            <ListItemText
              primary={file.file_name}
              secondary={
                <>
                  {formatSize(file.size)}
                  <FileSearchState file={file} />
                </>
              }
              slotProps={{ primary: { noWrap: true, title: file.file_name } }}
            />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
