import { ActionListDialog } from '../../../components/ui/ActionListDialog';
import { useSession } from '../../../lib/session';
import type { UrlAnalysisKind } from '../analysis-messages';

const CHOICES: { key: UrlAnalysisKind; label: string }[] = [
  { key: 'accessibility', label: 'Accessibility Analysis' },
  { key: 'seo', label: 'SEO Analysis' },
  // Crawling a site is work on the server's account of a user: signed in only.
  { key: 'site', label: 'Whole site' },
];

/** 'Select Action for URL': accessibility or SEO analysis of the address, or of its whole site. */
export function SelectUrlActionDialog({
  url,
  onSelect,
  onClose,
}: {
  url: string;
  onSelect: (kind: UrlAnalysisKind) => void;
  onClose: () => void;
}) {
  const { isAuthenticated } = useSession();
  return (
    <ActionListDialog
      id="url-action"
      title="Select Action for URL"
      subject={url}
      listLabel="Analyses"
      choices={isAuthenticated ? CHOICES : CHOICES.filter((c) => c.key !== 'site')}
      onSelect={onSelect}
      onClose={onClose}
    />
  );
}
