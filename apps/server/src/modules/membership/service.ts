import './messages';

/*
 * The membership module owns accounts, their members, roles and invites (tables accounts,
 * account_users and invites). Other modules ask it (membershipsOf, roleIn, createAccount, …)
 * instead of querying those tables; it asks the identity service for users and sessions.
 * Functions take the database (or a transaction), never Fastify: the caller publishes the
 * returned changes on the change bus after the commit and sends the mails.
 */

export {
  accountSummary,
  accountPlanId,
  accountNames,
  accountPlans,
  setAccountPlan,
  createAccount,
  renameAccount,
  deleteAccount,
} from './accounts';
export {
  addMember,
  memberIdsOf,
  accountWithRole,
  noMembershipOutside,
  memberRoles,
  memberCount,
  ownerContacts,
  adminContacts,
  type TMembership,
  type TMemberCountListener,
  listenToMemberCount,
  onMemberCountChanged,
  membershipsOf,
  roleIn,
  memberOf,
  changeRole,
  type TLanding,
  landMemberSessions,
  type TRemoval,
  removeMember,
} from './members';
export {
  listAccountUsers,
  type TInviteSend,
  type TInviteOutcome,
  inviteMembers,
  deleteInvites,
  inviteByToken,
  type TPendingInvite,
  consumeInvite,
} from './invites';
export { profileOf, setProfile } from './profile';
