export { contactRoutes } from './contact.routes';
export { CONTACT_MESSAGES_SHOWN, contactMessages } from './contact-messages';
