import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import AddCircleOutline from '@mui/icons-material/AddCircleOutline';
import Link2 from '@mui/icons-material/Link';
import Mic from '@mui/icons-material/Mic';
import MicOff from '@mui/icons-material/MicOff';
import Send from '@mui/icons-material/Send';
import StopCircle from '@mui/icons-material/StopCircle';
import TravelExplore from '@mui/icons-material/TravelExplore';
import { CHAT_MAX_CHARS } from '@inkwell/contract';
import { TooltipIconButton } from '../../../components/ui/TooltipIconButton';
import { conversation, useConversation } from '../../../lib/conversation';
import { filesQuestion, useFilesQuestion } from '../../../lib/files-question';
import { useSession } from '../../../lib/session';
import { useAiStatus } from '../api/get-ai-status';
import { useSendMessage } from '../hooks/use-send-message';
import { useSpeechRecognition } from '../hooks/use-speech-recognition';
import { SCOPE_ID } from './ask-files-scope-text';
import { MODEL_STATUS_BANNER_ID, ModelStatusBanner, modelStatusText } from './ModelStatusBanner';
import { SignInPrompt } from './SignInPrompt';

// Shown only while Ask my files is on: its chips stay out of what `/` loads first.
const AskFilesScope = lazy(() =>
  import('./AskFilesScope').then((m) => ({ default: m.AskFilesScope })),
);

export interface ChatInputBarProps {
  /** The upload button (the routes plug in the document actions). */
  renderUpload?: (p: { disabled: boolean }) => ReactNode;
  /** Other tools next to the text area (e.g. Translate Text). */
  renderTools?: (p: { disabled: boolean; text: string }) => ReactNode;
  /** URL mode: the URL field, its submit and 'Return' (the routes plug in page analysis). */
  renderUrlForm?: (p: { onReturn: () => void }) => ReactNode;
  /** 'Pick files' of Ask my files: opens the file drawer, where files are picked. */
  onPickFiles?: () => void;
}

/** The fixed chat input bar of spec §2 (upload, add URL, text area, voice, send, counter). */
export function ChatInputBar({
  renderUpload,
  renderTools,
  renderUrlForm,
  onPickFiles,
}: ChatInputBarProps) {
  const { isAuthenticated } = useSession();
  const { questionTarget } = useConversation();
  const filesMode = useFilesQuestion();
  // A question about one file (its menu's Ask Questions) replaces Ask my files, and vice versa.
  useEffect(() => {
    if (questionTarget) filesQuestion.setOn(false);
  }, [questionTarget]);
  const { send, sending, replying, stop } = useSendMessage();
  const { data: modelStatus } = useAiStatus(isAuthenticated);
  /** Why Send is disabled while the model is not ready (the banner says the same). */
  const modelNotReady = modelStatus ? modelStatusText(modelStatus) : null;
  const [text, setText] = useState('');
  const [urlMode, setUrlMode] = useState(false);
  const [optionsOpen, setOptionsOpen] = useState(false);
  const disabled = !isAuthenticated;
  // One set of Upload / Add URL buttons: behind 'Add Options' on small screens, inline otherwise.
  const small = useMediaQuery((t: Theme) => t.breakpoints.down('sm'), { noSsr: true });
  const voice = useSpeechRecognition((spoken) =>
    setText((t) => (t ? `${t} ${spoken}` : spoken).slice(0, CHAT_MAX_CHARS)),
  );
  const canSend = !disabled && !sending && !modelNotReady && text.trim().length > 0;

  async function submit() {
    if (!canSend) return;
    const sent = text;
    setText('');
    if (!(await send(sent))) setText(sent);
  }

  const addUrl = (
    <TooltipIconButton title="Add URL" disabled={disabled} onClick={() => setUrlMode(true)}>
      <Link2 />
    </TooltipIconButton>
  );
  const askFiles = (
    <TooltipIconButton
      title="Ask my files"
      aria-pressed={filesMode.on}
      disabled={disabled}
      // Pressed: the spec's blue, lighter on the dark paper where it is too dark to see.
      sx={
        filesMode.on
          ? (t) => ({ color: t.palette.mode === 'dark' ? 'primary.light' : 'primary.main' })
          : undefined
      }
      onClick={() => {
        if (!filesMode.on) conversation.setQuestionTarget(null);
        filesQuestion.setOn(!filesMode.on);
      }}
    >
      <TravelExplore />
    </TooltipIconButton>
  );
  const options = (
    <>
      {renderUpload?.({ disabled })}
      {addUrl}
      {askFiles}
    </>
  );
  const placeholder = questionTarget
    ? `Ask a question about ${questionTarget.fileName}`
    : filesMode.on
      ? 'Ask your files a question'
      : 'Ask anything';

  return (
    <Box>
      {disabled && <SignInPrompt />}
      {!disabled && modelStatus && <ModelStatusBanner status={modelStatus} />}
      {urlMode && renderUrlForm ? (
        renderUrlForm({ onReturn: () => setUrlMode(false) })
      ) : (
        <Paper variant="outlined" sx={{ p: 0.5 }}>
          {filesMode.on && !disabled && (
            <Suspense fallback={null}>
              <AskFilesScope state={filesMode} onPickFiles={onPickFiles} />
            </Suspense>
          )}
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
              placeholder={placeholder}
              inputProps={{
                'aria-label': 'Message',
                maxLength: CHAT_MAX_CHARS,
                'aria-describedby': filesMode.on && !disabled ? SCOPE_ID : undefined,
              }}
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
            <TooltipIconButton
              title={voice.listening ? 'Stop voice input' : 'Voice input'}
              label="Voice input"
              aria-pressed={voice.listening}
              disabled={disabled}
              onClick={voice.toggle}
            >
              {voice.listening ? <MicOff color="error" /> : <Mic />}
            </TooltipIconButton>
            {replying ? (
              <TooltipIconButton title="Stop" color="primary" onClick={stop}>
                <StopCircle />
              </TooltipIconButton>
            ) : (
              <TooltipIconButton
                title={modelNotReady && !disabled ? `Send (unavailable: ${modelNotReady})` : 'Send'}
                label="Send"
                color="primary"
                disabled={!canSend}
                aria-describedby={modelNotReady && !disabled ? MODEL_STATUS_BANNER_ID : undefined}
                onClick={() => void submit()}
              >
                <Send />
              </TooltipIconButton>
            )}
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
