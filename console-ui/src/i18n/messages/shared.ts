import { loginMessages } from '../../areas/public/login/messages';
import { timelineMessages } from '../../components/messages';
import { passwordResetMessages } from '../../areas/public/password-reset/messages';
import { userInviteMessages } from '../../areas/public/user-invite/messages';

/** Texts of both areas and the screens before sign-in (English, the default and fallback language). */
export const sharedMessages = {
  'app.name': 'Gridport',
  'action.confirm': 'Confirm',
  'action.cancel': 'Cancel',
  'action.discard': 'Discard',
  'action.save': 'Save',
  'action.close': 'Close',
  'action.signOut': 'Sign out',
  'action.reload': 'Reload',
  'action.dismiss': 'Dismiss',
  'action.retry': 'Try again',
  'list.export': 'Export CSV',
  'list.filters': 'Filter {title}',
  'list.search': 'Search',
  'list.clear': 'Clear filters',
  'list.failed': 'The list could not be loaded.',
  'hint.noPermission': 'No permission',
  'dialog.discard.title': 'Discard changes?',
  'dialog.discard.message': 'Your changes have not been saved. Close and lose them?',
  'version.available': 'A new version of Gridport is available.',
  'session.expired': 'Your session has expired. Please sign in again.',
  'error.rateLimited': 'Too many requests. Please wait a moment and try again.',
  'error.notFound': 'This could not be found. It may have been removed.',
  'error.forbidden': 'You do not have permission to do this.',
  'error.request': 'The request failed: {message}',
  'error.network': 'Gridport could not be reached. Check your connection and try again.',
  'error.payloadTooLarge': 'This is too large to send.',
  'error.server': 'Something went wrong on our side (unknown error). Please try again.',
  'error.unknown': 'Something unexpected went wrong (unknown error).',
  'notice.saved': 'Saved.',
  'notice.allowance': 'Saved. Remaining allowance for dangerous actions in the last 24 hours: {allowance}.',
  backToLogin: 'Back to sign in',
  loading: 'Loading…',
  ...timelineMessages,
  ...loginMessages,
  ...passwordResetMessages,
  ...userInviteMessages,
} as const;

export type SharedMessageKey = keyof typeof sharedMessages;
