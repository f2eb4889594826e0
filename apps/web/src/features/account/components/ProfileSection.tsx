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
  const update = useUpdateUser();

  function save(field: Field, value: string) {
    setError(undefined);
    update.mutate({ [field]: value } as UpdateUserRequest, {
      onSuccess: (data) => {
        setEditing(null);
        onSaved(data.message);
      },
      onError: (err) =>
        setError(
          err instanceof ApiError && err.status === 409 && field === 'email'
            ? PROFILE_MESSAGES.emailExists
            : PROFILE_MESSAGES.failed,
        ),
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
          onEdit={() => {
            setError(undefined);
            setEditing(field);
          }}
          onCancel={() => {
            setError(undefined);
            setEditing(null);
          }}
          onSave={(value) => save(field, value)}
        />
      ))}
    </>
  );
}
