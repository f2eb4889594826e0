import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';

/**
 * Shell state shared by the top bar, the side drawer and the screens composed in the layout:
 * which drawers/dialogs are open, and the "New Topic" signal the chat screen listens to.
 */
export interface UiState {
  /** Side navigation drawer (mini variant on large screens, temporary on small ones). */
  navOpen: boolean;
  setNavOpen: (open: boolean) => void;
  toggleNav: () => void;
  /** Right-side file drawer ("My Files" in the account menu). */
  fileDrawerOpen: boolean;
  openFileDrawer: () => void;
  closeFileDrawer: () => void;
  /** Contact Us dialog (Help → Contact). */
  contactOpen: boolean;
  openContact: () => void;
  closeContact: () => void;
  /** Increases each time "New Topic" is chosen; the chat screen resets itself when it changes. */
  newTopicSignal: number;
  requestNewTopic: () => void;
}

const UiStateContext = createContext<UiState | null>(null);

export function UiStateProvider({
  children,
  initialNavOpen = false,
}: {
  children: ReactNode;
  initialNavOpen?: boolean;
}) {
  const [navOpen, setNavOpen] = useState(initialNavOpen);
  const [fileDrawerOpen, setFileDrawerOpen] = useState(false);
  const [contactOpen, setContactOpen] = useState(false);
  const [newTopicSignal, setNewTopicSignal] = useState(0);

  const value = useMemo<UiState>(
    () => ({
      navOpen,
      setNavOpen,
      toggleNav: () => setNavOpen((o) => !o),
      fileDrawerOpen,
      openFileDrawer: () => setFileDrawerOpen(true),
      closeFileDrawer: () => setFileDrawerOpen(false),
      contactOpen,
      openContact: () => setContactOpen(true),
      closeContact: () => setContactOpen(false),
      newTopicSignal,
      requestNewTopic: () => setNewTopicSignal((n) => n + 1),
    }),
    [navOpen, fileDrawerOpen, contactOpen, newTopicSignal],
  );
  return <UiStateContext value={value}>{children}</UiStateContext>;
}

export function useUiState(): UiState {
  const ctx = useContext(UiStateContext);
  if (!ctx) throw new Error('useUiState must be used inside <UiStateProvider>');
  return ctx;
}
