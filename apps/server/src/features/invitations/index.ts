export {
  consumeInvitation,
  createInvitation,
  findValidInvitation,
  INVITATION_INVALID,
  INVITATION_OTHER_EMAIL,
} from './invitations.service';
