export { backupLeftoversRoutes } from './backup-leftovers.routes';
