import { emailSchema } from '../../../../../contracts/user';

/** The emails typed into the invite form: one a line or separated by commas (or semicolons), blanks left out. */
export function emailsOf(text: string): string[] {
  return text
    .split(/[\n,;]+/)
    .map((part) => emailSchema.cast(part) ?? '')
    .filter((email) => email !== '');
}

/** The emails that break the email rule (console.md section 5), as typed. */
export function invalidEmails(emails: readonly string[]): string[] {
  return emails.filter((email) => !emailSchema.isValidSync(email));
}
