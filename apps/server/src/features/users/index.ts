export { usersRoutes } from './users.routes';
export { deleteAccount, englishDialectOf } from './users.service';
