import { useSearchParams } from 'react-router-dom';
import { PageContainer } from '../../../components/ui/PageContainer';
import { RequestResetForm } from './RequestResetForm';
import { SetNewPasswordForm } from './SetNewPasswordForm';

/** `/reset-password`: request a link, or with `?token=` set a new password. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? (
    <PageContainer title="Set New Password">
      <SetNewPasswordForm token={token} />
    </PageContainer>
  ) : (
    <PageContainer title="Reset Password">
      <RequestResetForm />
    </PageContainer>
  );
}
