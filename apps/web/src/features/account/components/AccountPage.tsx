import { useState } from 'react';
import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { FeedbackSnackbar, type Feedback } from '../../../components/ui/FeedbackSnackbar';
import { PageContainer } from '../../../components/ui/PageContainer';
import { PageSection } from '../../../components/ui/PageSection';
import { useUser } from '../api/get-user';
import { ChangePasswordForm } from './ChangePasswordForm';
import { DataSection } from './DataSection';
import { DeleteAccountSection } from './DeleteAccountSection';
import { DictionarySection } from './DictionarySection';
import { ProfileSection } from './ProfileSection';
import { ProofreadingSection } from './ProofreadingSection';

export function formatCreatedAt(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}

export function AccountPage() {
  const { data: user, isPending, isError } = useUser();
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const success = (message: string) => setFeedback({ message, severity: 'success' });

  return (
    <PageContainer title="Your account" maxWidth={640}>
      {isPending && <CircularProgress aria-label="Loading your account" />}
      {isError && <Alert severity="error">Error loading your account, please try again.</Alert>}
      {user && (
        <>
          <Typography variant="body2" color="text.secondary">
            Account created on {formatCreatedAt(user.created_at)}
          </Typography>
          <PageSection title="Profile">
            <ProfileSection user={user} onSaved={success} />
          </PageSection>
          <PageSection title="Proofreading">
            <ProofreadingSection user={user} onSaved={success} />
          </PageSection>
          <PageSection title="Personal dictionary">
            <DictionarySection />
          </PageSection>
          <PageSection title="Change password">
            <ChangePasswordForm onChanged={success} />
          </PageSection>
          <PageSection title="Your data">
            <DataSection onFeedback={setFeedback} />
          </PageSection>
          <PageSection title="Delete your account">
            <DeleteAccountSection />
          </PageSection>
        </>
      )}
      <FeedbackSnackbar feedback={feedback} onClose={() => setFeedback(null)} />
    </PageContainer>
  );
}
