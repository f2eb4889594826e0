import { lazy, Suspense, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { Outlet, useLocation } from 'react-router-dom';
import { AlertBanner } from '../../features/alerts/components/AlertBanner';
import { CookieConsentBanner } from '../../features/consent/components/CookieConsentBanner';
import { useUiState } from '../ui-state';
import { SideDrawer } from './SideDrawer';
import { SkipLink } from './SkipLink';
import { TopBar } from './TopBar';

const ContactDialog = lazy(() =>
  import('../../features/contact/components/ContactDialog').then((m) => ({
    default: m.ContactDialog,
  })),
);

/** Routes where the chat input bar is shown (spec §2 hides it on every other screen). */
const BOTTOM_BAR_ROUTES = ['/'];

export interface AppLayoutProps {
  /** The fixed chat input bar (part 2), shown on the chat route only. */
  bottomBar?: ReactNode;
  /** The right-side file drawer (part 2), driven by the shared UI state. */
  renderFileDrawer?: (props: { open: boolean; onClose: () => void }) => ReactNode;
  /** Extra panel in the side drawer (part 2: MyFiles). */
  navPanel?: ReactNode;
}

export function AppLayout({ bottomBar, renderFileDrawer, navPanel }: AppLayoutProps) {
  const theme = useTheme();
  const large = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const { pathname } = useLocation();
  const ui = useUiState();
  const showBottomBar = Boolean(bottomBar) && BOTTOM_BAR_ROUTES.includes(pathname);

  return (
    <Box sx={{ display: 'flex', minHeight: '100dvh' }}>
      <SkipLink />
      <TopBar />
      <SideDrawer permanent={large} panel={navPanel} />
      <Box
        component="main"
        id="main-content"
        tabIndex={-1}
        sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column', outline: 'none' }}
      >
        <Toolbar />
        <AlertBanner />
        <Box sx={{ flexGrow: 1, display: 'flex', flexDirection: 'column' }}>
          <Suspense fallback={<LinearProgress aria-label="Loading page" />}>
            <Outlet />
          </Suspense>
        </Box>
        {showBottomBar && (
          <Box sx={{ position: 'sticky', bottom: 0, zIndex: 2, bgcolor: 'background.default' }}>
            {bottomBar}
          </Box>
        )}
      </Box>
      {renderFileDrawer?.({ open: ui.fileDrawerOpen, onClose: ui.closeFileDrawer })}
      {ui.contactOpen && (
        <Suspense fallback={null}>
          <ContactDialog open onClose={ui.closeContact} />
        </Suspense>
      )}
      <CookieConsentBanner />
    </Box>
  );
}
