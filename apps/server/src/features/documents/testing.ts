export { postForm } from './test-helpers';
