export { crawlersRoutes } from './crawlers.routes';
