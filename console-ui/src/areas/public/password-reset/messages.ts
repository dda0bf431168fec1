/** Texts of the forgot-password and reset-password screens. */
export const passwordResetMessages = {
  'forgotPassword.title': 'Forgot password',
  'forgotPassword.help': 'Enter your email and we will send you a link to choose a new password.',
  'forgotPassword.submit': 'Send link',
  'forgotPassword.sent': 'If an account exists for {email}, a link to reset the password is on its way.',
  'forgotPassword.rateLimited': 'Too many password resets for this email. Try again in an hour.',
  'resetPassword.title': 'Choose a new password',
  'resetPassword.password': 'New password',
  'resetPassword.passwordHelp': 'At least 12 characters.',
  'resetPassword.recoveryCode': 'Recovery code (only if two-factor is on)',
  'resetPassword.submit': 'Set password',
  'resetPassword.done': 'Your password is changed. Sign in with the new one.',
  'resetPassword.expired': 'This reset link has expired. Ask for a new one.',
  'resetPassword.invalidLink': 'This reset link is incomplete. Open the link from the mail again.',
  'resetPassword.invalidCode': 'The link or recovery code is not valid.',
} as const;
