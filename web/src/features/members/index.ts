/** Members and roles (issue 16): the Settings "Members" card and the public accept-invitation page. */
export { AcceptInvitationPage } from "./components/accept-invitation-page";
export { MembersSection } from "./components/members-section";
