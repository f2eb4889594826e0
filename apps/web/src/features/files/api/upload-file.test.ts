import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { API_MESSAGES } from '../../../lib/api-messages';
import { session } from '../../../lib/session';
import { callsTo, json, mockFetch, mockXhr } from '../../../test/utils';
import { uploadFile } from './upload-file';

const FILE = new File(['hello'], 'notes.txt');
const UPLOADED = {
  message: 'File uploaded successfully!',
  file: { id: 1, file_name: 'notes.txt', type: 'txt', size: 5, created_at: '' },
};
const signedIn = () =>
  session.signIn({ access_token: 'old-access', refresh_token: 'old-refresh', first_name: 'Ada' });

/** The upload answers 401 to the old token and 201 to the new one. */
const byToken = (req: { headers: Record<string, string> }) =>
  req.headers.Authorization === 'Bearer new-access'
    ? { status: 201, body: UPLOADED }
    : { status: 401, body: { error: 'Invalid or expired token' } };

const logged = (fetchMock: ReturnType<typeof mockFetch>) =>
  callsTo(fetchMock, 'logs').map(([, init]) => String(init?.body));

describe('uploadFile', () => {
  it('reports progress and returns the server answer', async () => {
    signedIn();
    mockFetch(() => undefined);
    const uploads = mockXhr(() => ({ status: 201, body: UPLOADED, progress: [40, 100] }));
    const progress: number[] = [];
    await expect(uploadFile(FILE, (p) => progress.push(p))).resolves.toEqual(UPLOADED);
    expect(progress).toEqual([40, 100]);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.headers.Authorization).toBe('Bearer old-access');
    expect((uploads[0]!.body as FormData).get('file')).toBeInstanceOf(File);
  });

  it('on a 401 refreshes once and retries once with the new token', async () => {
    signedIn();
    const fetchMock = mockFetch((req) =>
      req.path === 'token/refresh'
        ? json(200, { access_token: 'new-access', refresh_token: 'new-refresh' })
        : undefined,
    );
    const uploads = mockXhr(byToken);
    await expect(uploadFile(FILE, () => undefined)).resolves.toEqual(UPLOADED);
    expect(uploads.map((u) => u.headers.Authorization)).toEqual([
      'Bearer old-access',
      'Bearer new-access',
    ]);
    expect(callsTo(fetchMock, 'token/refresh')).toHaveLength(1);
  });

  it('does not retry when the refresh fails: the 401 fails the upload, and it is logged', async () => {
    signedIn();
    const fetchMock = mockFetch((req) =>
      req.path === 'token/refresh' ? json(500, { error: 'refresh broke' }) : undefined,
    );
    const uploads = mockXhr(byToken);
    const err = await uploadFile(FILE, () => undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, serverMessage: 'Invalid or expired token' });
    expect(uploads).toHaveLength(1);
    expect(logged(fetchMock).some((b) => b.includes('Token refresh failed'))).toBe(true);
  });

  it('does not retry when no refresh token is stored', async () => {
    localStorage.setItem('accessToken', 'only-access');
    const fetchMock = mockFetch(() => undefined);
    const uploads = mockXhr(byToken);
    await expect(uploadFile(FILE, () => undefined)).rejects.toMatchObject({ status: 401 });
    expect(uploads).toHaveLength(1);
    expect(callsTo(fetchMock, 'token/refresh')).toHaveLength(0);
    expect(logged(fetchMock).some((b) => b.includes(API_MESSAGES.noRefreshToken))).toBe(true);
  });

  it('a request that never gets an answer fails with the network message', async () => {
    signedIn();
    mockFetch(() => undefined);
    mockXhr(() => 'network');
    await expect(uploadFile(FILE, () => undefined)).rejects.toMatchObject({
      status: null,
      message: API_MESSAGES.network,
    });
  });
});
