/** Texts of the user invite screen (name, password, two-factor set-up, recovery codes). */
export const userInviteMessages = {
  'userInvite.title': 'Join {organization} on Gridport',
  'userInvite.email': 'You were invited as {email}.',
  'userInvite.name': 'Your name',
  'userInvite.password': 'Password',
  'userInvite.twoFactor': 'Two-factor authentication',
  'userInvite.twoFactorHelp': 'Add this key to your authenticator app, then enter the 6-digit code it shows.',
  'userInvite.secret': 'Key',
  'userInvite.openApp': 'Open in authenticator app',
  'userInvite.qrCode': 'QR code of the key: scan it with your authenticator app',
  'userInvite.code': 'Code from the app',
  'userInvite.submit': 'Create account',
  'userInvite.recoveryCodes': 'Your recovery codes',
  'userInvite.recoveryCodesHelp': 'Keep these codes somewhere safe. Each works once when you cannot use your authenticator app.',
  'userInvite.continue': 'Continue to Gridport',
  'userInvite.invalid': 'This invite is not valid any more. Ask for a new one.',
  'userInvite.secretExpired': 'The key has expired. A new one is shown; add it to your app again.',
} as const;
