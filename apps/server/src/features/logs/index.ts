export { logsRoutes } from './logs.routes';
