/** "Your account" (issue 16): the Settings card for the signed-in user's password and two-factor sign-in. */
export { AccountSection } from "./components/account-section";
