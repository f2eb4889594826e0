import { createHash, randomBytes } from 'node:crypto';

/** Random opaque tokens (refresh, password reset); only their SHA-256 is stored. */
export const newOpaqueToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
