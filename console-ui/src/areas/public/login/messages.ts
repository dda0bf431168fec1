/** Texts of the sign-in screen (email and password, then a two-factor or recovery code). */
export const loginMessages = {
  'login.title': 'Sign in to Gridport',
  'login.email': 'Email',
  'login.password': 'Password',
  'login.code': 'Two-factor code',
  'login.codeHelp': 'The 6-digit code from your authenticator app.',
  'login.recoveryCode': 'Recovery code',
  'login.useRecoveryCode': 'Use a recovery code instead',
  'login.useCode': 'Use a code from your authenticator app',
  'login.submit': 'Sign in',
  'login.forgotPassword': 'Forgot your password?',
  'login.invalidCredentials': 'The email or password is wrong.',
  'login.codeInvalid': 'The code is not valid.',
  'login.tooManyAttempts': 'Too many failed attempts. Try again in 15 minutes.',
  'login.staff': 'Staff sign in',
} as const;
