import { useState } from 'react';
import type { AdminOverviewResponse } from '@inkwell/contract';
import { FeedbackSnackbar, type Feedback } from '../../../components/ui/FeedbackSnackbar';
import { PageContainer } from '../../../components/ui/PageContainer';
import { PageSection } from '../../../components/ui/PageSection';
import { AlertForm } from './AlertForm';
import { ContactMessages } from './ContactMessages';
import { InviteForm } from './InviteForm';
import { ServiceStatus } from './ServiceStatus';
import { UsersTable } from './UsersTable';

/** The operators' page: the service, the banner, invitations, every account and contact messages. */
export function AdminPage({
  overview,
  currentUserEmail,
}: {
  overview: AdminOverviewResponse;
  /** The operator's own row offers no disable or delete. */
  currentUserEmail?: string;
}) {
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  return (
    <PageContainer title="Admin" maxWidth={1100}>
      <PageSection title="Service">
        <ServiceStatus overview={overview} />
      </PageSection>
      <PageSection title="Alert banner">
        <AlertForm current={overview.alert} onFeedback={setFeedback} />
      </PageSection>
      <PageSection title="Invitations">
        <InviteForm />
      </PageSection>
      <PageSection title="Users">
        <UsersTable currentUserEmail={currentUserEmail} onFeedback={setFeedback} />
      </PageSection>
      <PageSection title="Contact messages">
        <ContactMessages />
      </PageSection>
      <FeedbackSnackbar feedback={feedback} onClose={() => setFeedback(null)} />
    </PageContainer>
  );
}
