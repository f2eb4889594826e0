import { ActionListDialog } from '../../../components/ui/ActionListDialog';
import type { UrlAnalysisKind } from '../run-url-analysis';

const CHOICES: { key: UrlAnalysisKind; label: string }[] = [
  { key: 'accessibility', label: 'Accessibility Analysis' },
  { key: 'seo', label: 'SEO Analysis' },
];

/** 'Select Action for URL': accessibility or SEO analysis of the address. */
export function SelectUrlActionDialog({
  url,
  onSelect,
  onClose,
}: {
  url: string;
  onSelect: (kind: UrlAnalysisKind) => void;
  onClose: () => void;
}) {
  return (
    <ActionListDialog
      id="url-action"
      title="Select Action for URL"
      subject={url}
      listLabel="Analyses"
      choices={CHOICES}
      onSelect={onSelect}
      onClose={onClose}
    />
  );
}
