export { adminRoutes } from './admin.routes';
