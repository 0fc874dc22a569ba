export { ForgotPasswordPage } from "./components/forgot-password-page";
export { LoginPage } from "./components/login-page";
export { RegisterPage } from "./components/register-page";
export { ResetPasswordPage } from "./components/reset-password-page";
export { loginPathFor, safeNextPath } from "./lib/next-path";
