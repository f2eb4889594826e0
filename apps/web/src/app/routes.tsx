import { lazy, Suspense, useCallback, useEffect, useMemo } from 'react';
import { Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { useAiStatus } from '../features/chat/api/get-ai-status';
import { ChatBottomBar } from '../features/chat/components/ChatBottomBar';
import { useConversationLifecycle } from '../features/chat/hooks/use-conversation-lifecycle';
import type { DocumentSource } from '../features/documents/api/document-form';
import type { DocumentAction } from '../features/documents/document-actions';
import { useDocumentActions } from '../features/documents/hooks/use-document-actions';
import { FileDrawer } from '../features/files/components/FileDrawer';
import type { Job } from '@inkwell/contract';
import type { ConversationMessage } from '../lib/conversation';
import { useSession } from '../lib/session';
import { AppLayout } from './layout/AppLayout';
import { RequireAuth } from './layout/RequireAuth';
import { NotFoundPage } from './routes/NotFoundPage';
import { unavailableModelActions } from './model-needs';
import { useUiState } from './ui-state';

// Screens load lazily so the first paint of `/` carries only the shell. (Declarative routes
// rather than a data router: the data router alone would add ~20 KB gzipped to the first chunk.)
const ChatScreen = lazy(() =>
  import('../features/chat/ChatScreen').then((m) => ({ default: m.ChatScreen })),
);
const LoginPage = lazy(() =>
  import('../features/auth/components/LoginPage').then((m) => ({ default: m.LoginPage })),
);
const RegisterPage = lazy(() =>
  import('../features/auth/components/RegisterPage').then((m) => ({ default: m.RegisterPage })),
);
const ResetPasswordPage = lazy(() =>
  import('../features/auth/components/ResetPasswordPage').then((m) => ({
    default: m.ResetPasswordPage,
  })),
);
const FaqPage = lazy(() =>
  import('../features/faq/components/FaqPage').then((m) => ({ default: m.FaqPage })),
);
const AboutRoute = lazy(() =>
  import('./routes/AboutRoute').then((m) => ({ default: m.AboutRoute })),
);
const AdminRoute = lazy(() =>
  import('./routes/AdminRoute').then((m) => ({ default: m.AdminRoute })),
);
const AccountPage = lazy(() =>
  import('../features/account/components/AccountPage').then((m) => ({ default: m.AccountPage })),
);
// Pieces other features plug into the chat, the side drawer and ai replies.
const ChatUploadButton = lazy(() =>
  import('../features/documents/components/ChatUploadButton').then((m) => ({
    default: m.ChatUploadButton,
  })),
);
const TranslateTextButton = lazy(() =>
  import('../features/documents/components/TranslateTextButton').then((m) => ({
    default: m.TranslateTextButton,
  })),
);
const DownloadResponseButton = lazy(() =>
  import('../features/documents/components/DownloadResponseButton').then((m) => ({
    default: m.DownloadResponseButton,
  })),
);
const UrlForm = lazy(() =>
  import('../features/analysis/components/UrlForm').then((m) => ({ default: m.UrlForm })),
);
const PassagePreviewHost = lazy(() =>
  import('../features/files/components/PassagePreviewHost').then((m) => ({
    default: m.PassagePreviewHost,
  })),
);
const MyFilesPanel = lazy(() =>
  import('../features/files/components/MyFilesPanel').then((m) => ({ default: m.MyFilesPanel })),
);

/**
 * The user's jobs come back in the conversation (after a reload, on another device), each shown
 * by the feature that runs it; a feature's code loads only when one of its jobs is there.
 */
async function replayJob(job: Job) {
  switch (job.kind) {
    case 'ask':
      return (await import('../features/chat/question-job')).replayQuestionJob(job);
    case 'ask_files':
      return (await import('../features/chat/files-question-job')).replayFilesQuestionJob(job);
    case 'accessibility':
    case 'seo':
      return (await import('../features/analysis/run-url-analysis')).replayAnalysisJob(job);
    case 'site':
      return (await import('../features/analysis/run-site-analysis')).replaySiteJob(job);
    default:
      return (await import('../features/documents/run-document-action')).replayDocumentJob(job);
  }
}

/**
 * Every route of the app, and where features are composed: the chat input bar gets the document
 * upload, text translation and URL analysis; the file drawer and the MyFiles panel hand document
 * actions to the documents feature, which posts its messages into the conversation.
 */
export function AppRoutes() {
  const { newTopicSignal, openFileDrawer } = useUiState();
  const { isAuthenticated, endedReason } = useSession();
  // Actions that need the model are disabled, with the reason, while none is available.
  const { data: modelStatus } = useAiStatus(isAuthenticated);
  const unavailable = useMemo(() => unavailableModelActions(modelStatus), [modelStatus]);
  useConversationLifecycle({ isAuthenticated, newTopicSignal, replayJob });
  const { start: startDocumentAction, dialogs } = useDocumentActions();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  // The server ended the session (a disabled account): the sign-in page says why.
  useEffect(() => {
    if (endedReason && pathname !== '/login') navigate('/login');
  }, [endedReason, pathname, navigate]);

  // Spec §4: a file action returns to the chat if elsewhere, then posts its messages there.
  const startAction = useCallback(
    (action: DocumentAction, source: DocumentSource) => {
      if (pathname !== '/') navigate('/');
      startDocumentAction(action, source);
    },
    [pathname, navigate, startDocumentAction],
  );
  // Stable, so memoised messages do not re-render on every keystroke.
  const messageActions = useCallback(
    (m: ConversationMessage) => (
      <Suspense fallback={null}>
        <DownloadResponseButton text={m.text} />
      </Suspense>
    ),
    [],
  );

  const bottomBar = (
    <ChatBottomBar
      renderUpload={({ disabled }) => (
        <Suspense fallback={null}>
          <ChatUploadButton disabled={disabled} unavailable={unavailable} onAction={startAction} />
        </Suspense>
      )}
      renderTools={(p) => (
        <Suspense fallback={null}>
          <TranslateTextButton {...p} />
        </Suspense>
      )}
      renderUrlForm={(p) => (
        <Suspense fallback={null}>
          <UrlForm {...p} />
        </Suspense>
      )}
      onPickFiles={openFileDrawer}
    />
  );

  return (
    <>
      <Routes>
        <Route
          element={
            <AppLayout
              bottomBar={bottomBar}
              renderFileDrawer={({ open, onClose }) =>
                isAuthenticated && (
                  <FileDrawer
                    open={open}
                    onClose={onClose}
                    unavailable={unavailable}
                    onDocumentAction={(action, file) =>
                      startAction(action, { fileName: file.file_name, fileId: file.id })
                    }
                  />
                )
              }
              navPanel={
                isAuthenticated ? (
                  <Suspense fallback={null}>
                    <MyFilesPanel />
                  </Suspense>
                ) : undefined
              }
            />
          }
        >
          <Route index element={<ChatScreen messageActions={messageActions} />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="register" element={<RegisterPage />} />
          <Route path="reset-password" element={<ResetPasswordPage />} />
          <Route path="faq" element={<FaqPage />} />
          <Route path="about" element={<AboutRoute />} />
          <Route element={<RequireAuth />}>
            <Route path="account" element={<AccountPage />} />
          </Route>
          {/* Not behind RequireAuth: anyone but an operator gets the 404 page, not /login. */}
          <Route path="admin" element={<AdminRoute />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
      {dialogs}
      {isAuthenticated && (
        <Suspense fallback={null}>
          <PassagePreviewHost />
        </Suspense>
      )}
    </>
  );
}
