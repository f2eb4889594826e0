import { useState } from 'react';
import type { UpdateUserRequest, UserResponse } from '@inkwell/contract';
import { ApiError } from '../../../lib/api-client';
import { useUpdateUser } from '../api/update-user';
import { ProfileField } from './ProfileField';

type Field = 'first_name' | 'last_name' | 'email';
const FIELDS: { field: Field; label: string; type?: string }[] = [
  { field: 'first_name', label: 'First name' },
  { field: 'last_name', label: 'Last name' },
  { field: 'email', label: 'Email', type: 'email' },
];

export const PROFILE_MESSAGES = {
  emailExists: 'Email already exists',
  failed: 'Error updating user data',
  wrongPassword: 'Current password is incorrect',
} as const;

/** First name, last name and email, edited one at a time. */
export function ProfileSection({
  user,
  onSaved,
}: {
  user: UserResponse;
  onSaved: (message: string) => void;
}) {
  const [editing, setEditing] = useState<Field | null>(null);
  const [error, setError] = useState<string>();
  const [passwordError, setPasswordError] = useState<string>();
  const update = useUpdateUser();
  const clearErrors = () => {
    setError(undefined);
    setPasswordError(undefined);
  };

  function save(field: Field, value: string, currentPassword?: string) {
    clearErrors();
    // An email change carries the current password (the server refuses it without).
    const body = (
      field === 'email' ? { email: value, current_password: currentPassword } : { [field]: value }
    ) as UpdateUserRequest;
    update.mutate(body, {
      onSuccess: (data) => {
        setEditing(null);
        onSaved(data.message);
      },
      onError: (err) => {
        const status = err instanceof ApiError ? err.status : null;
        if (field === 'email' && status === 409) setError(PROFILE_MESSAGES.emailExists);
        else if (
          field === 'email' &&
          status === 400 &&
          err instanceof ApiError &&
          err.serverMessage === PROFILE_MESSAGES.wrongPassword
        )
          setPasswordError(PROFILE_MESSAGES.wrongPassword);
        else setError(PROFILE_MESSAGES.failed);
      },
    });
  }

  return (
    <>
      {FIELDS.map(({ field, label, type }) => (
        <ProfileField
          key={field}
          label={label}
          type={type}
          value={user[field]}
          editing={editing === field}
          locked={editing !== null && editing !== field}
          saving={update.isPending}
          error={editing === field ? error : undefined}
          confirmWithPassword={field === 'email'}
          passwordError={editing === field ? passwordError : undefined}
          onEdit={() => {
            clearErrors();
            setEditing(field);
          }}
          onCancel={() => {
            clearErrors();
            setEditing(null);
          }}
          onSave={(value, currentPassword) => save(field, value, currentPassword)}
        />
      ))}
    </>
  );
}
