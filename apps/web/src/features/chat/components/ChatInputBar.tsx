import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import AddCircleOutline from '@mui/icons-material/AddCircleOutline';
import Link2 from '@mui/icons-material/Link';
import Mic from '@mui/icons-material/Mic';
import MicOff from '@mui/icons-material/MicOff';
import Send from '@mui/icons-material/Send';
import { Link as RouterLink } from 'react-router-dom';
import { CHAT_MAX_CHARS } from '@inkwell/contract';
import { useConversation } from '../../../lib/conversation';
import { useSession } from '../../../lib/session';
import { useSendMessage } from '../hooks/use-send-message';
import { useSpeechRecognition } from '../hooks/use-speech-recognition';

export interface ChatInputBarProps {
  /** The upload button (the routes plug in the document actions). */
  renderUpload?: (p: { disabled: boolean }) => ReactNode;
  /** Other tools next to the text area (e.g. Translate Text). */
  renderTools?: (p: { disabled: boolean; text: string }) => ReactNode;
  /** URL mode: the URL field, its submit and 'Return' (the routes plug in page analysis). */
  renderUrlForm?: (p: { onReturn: () => void }) => ReactNode;
}

/** The fixed chat input bar of spec §2 (upload, add URL, text area, voice, send, counter). */
export function ChatInputBar({ renderUpload, renderTools, renderUrlForm }: ChatInputBarProps) {
  const { isAuthenticated } = useSession();
  const { questionTarget } = useConversation();
  const { send, sending } = useSendMessage();
  const [text, setText] = useState('');
  const [urlMode, setUrlMode] = useState(false);
  const [optionsOpen, setOptionsOpen] = useState(false);
  const disabled = !isAuthenticated;
  // One set of Upload / Add URL buttons: behind 'Add Options' on small screens, inline otherwise.
  const small = useMediaQuery((t: Theme) => t.breakpoints.down('sm'), { noSsr: true });
  const voice = useSpeechRecognition((spoken) =>
    setText((t) => (t ? `${t} ${spoken}` : spoken).slice(0, CHAT_MAX_CHARS)),
  );
  const canSend = !disabled && !sending && text.trim().length > 0;

  async function submit() {
    if (!canSend) return;
    const sent = text;
    setText('');
    if (!(await send(sent))) setText(sent);
  }

  const addUrl = (
    <Tooltip slotProps={{ popper: { disablePortal: true } }} title="Add URL">
      <span>
        <IconButton aria-label="Add URL" disabled={disabled} onClick={() => setUrlMode(true)}>
          <Link2 />
        </IconButton>
      </span>
    </Tooltip>
  );
  const options = (
    <>
      {renderUpload?.({ disabled })}
      {addUrl}
    </>
  );

  return (
    <Box>
      {disabled && (
        <Alert severity="info" sx={{ mb: 1 }}>
          Please{' '}
          <Link component={RouterLink} to="/register">
            register
          </Link>{' '}
          or{' '}
          <Link component={RouterLink} to="/login">
            log in
          </Link>{' '}
          to use the chat.
        </Alert>
      )}
      {urlMode && renderUrlForm ? (
        renderUrlForm({ onReturn: () => setUrlMode(false) })
      ) : (
        <Paper variant="outlined" sx={{ p: 0.5 }}>
          {small && (
            <Collapse in={optionsOpen}>
              <Box id="chat-add-options" sx={{ display: 'flex', gap: 0.5 }}>
                {options}
              </Box>
            </Collapse>
          )}
          <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 0.5 }}>
            {small ? (
              <IconButton
                aria-label="Add Options"
                aria-expanded={optionsOpen}
                aria-controls="chat-add-options"
                disabled={disabled}
                onClick={() => setOptionsOpen((o) => !o)}
              >
                <AddCircleOutline />
              </IconButton>
            ) : (
              options
            )}
            <InputBase
              multiline
              maxRows={6}
              value={text}
              disabled={disabled}
              placeholder={
                questionTarget ? `Ask a question about ${questionTarget.fileName}` : 'Ask anything'
              }
              inputProps={{ 'aria-label': 'Message', maxLength: CHAT_MAX_CHARS }}
              onChange={(e) => setText(e.target.value.slice(0, CHAT_MAX_CHARS))}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  void submit();
                }
              }}
              sx={{ flexGrow: 1, px: 1, py: 1 }}
            />
            {renderTools?.({ disabled, text })}
            <Tooltip
              slotProps={{ popper: { disablePortal: true } }}
              title={voice.listening ? 'Stop voice input' : 'Voice input'}
            >
              <span>
                <IconButton
                  aria-label="Voice input"
                  aria-pressed={voice.listening}
                  disabled={disabled}
                  onClick={voice.toggle}
                >
                  {voice.listening ? <MicOff color="error" /> : <Mic />}
                </IconButton>
              </span>
            </Tooltip>
            <Tooltip slotProps={{ popper: { disablePortal: true } }} title="Send">
              <span>
                <IconButton
                  aria-label="Send"
                  color="primary"
                  disabled={!canSend}
                  onClick={() => void submit()}
                >
                  <Send />
                </IconButton>
              </span>
            </Tooltip>
          </Box>
          <Typography
            variant="caption"
            color="text.secondary"
            aria-live="off"
            sx={{ display: { xs: 'none', sm: 'block' }, textAlign: 'right', pr: 1 }}
          >
            {`${text.length}/${CHAT_MAX_CHARS}`}
          </Typography>
        </Paper>
      )}
    </Box>
  );
}
