export { authRepo } from './auth.repo';
export { authRoutes } from './auth.routes';
export { ACCOUNT_DISABLED, endAllSessions, startSession } from './auth.service';
export { configurePasswordHashing, hashPassword, verifyPassword } from './passwords';
export { verifyPasswordLimited, type PasswordChecker } from './limited-password-check';
export { type RegistrationPolicy } from './registration-policy';
