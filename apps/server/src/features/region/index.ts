export { regionRoutes } from './region.routes';
