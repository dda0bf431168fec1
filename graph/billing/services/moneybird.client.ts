import { GridportError } from '../../../contracts/errors';

/** Moneybird's API when MONEYBIRD_API_URL does not say otherwise. */
export const defaultMoneybirdApiUrl = 'https://moneybird.com/api/v2';

/**
 * How Gridport reaches Moneybird (docs/operations.md, "Configuration"): MONEYBIRD_API_URL
 * (Moneybird's REST API v2), MONEYBIRD_ADMINISTRATION_ID (the administration whose contacts
 * legal entities are made from) and MONEYBIRD_API_TOKEN (a personal API token or an OAuth
 * access token). Without administration and token, making a legal entity from a Moneybird
 * contact answers service_unavailable.
 */
export interface MoneybirdSettings {
  apiUrl: string;
  administrationId: string | null;
  apiToken: string | null;
  /** How long one call may take; 10 s unless a test says otherwise. */
  timeoutMs?: number;
}

/**
 * The part of a Moneybird contact (GET /{administration_id}/contacts/{id}.json) a legal entity
 * is made from; Moneybird answers "" for a field left empty.
 */
export interface MoneybirdContact {
  id: string;
  company_name: string | null;
  firstname: string | null;
  lastname: string | null;
  address1: string | null;
  address2: string | null;
  zipcode: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2 as Moneybird keeps it. */
  country: string | null;
  email: string | null;
  /** Where invoices go; Moneybird allows several addresses separated by commas. */
  send_invoices_to_email: string | null;
  chamber_of_commerce: string | null;
  tax_number: string | null;
}

/** The details of a legal entity as Moneybird's contact gives them; null where the contact says nothing. */
export interface ContactDetails {
  companyName: string | null;
  address1: string | null;
  address2: string | null;
  zipcode: string | null;
  city: string | null;
  country: string | null;
  emails: string[];
  chamberOfCommerce: string | null;
  taxNumber: string | null;
}

/** What the legal entity service asks of Moneybird (a port, so tests may stand in for it). */
export interface MoneybirdContacts {
  /** The contact's details; moneybird_contact_id_invalid when Moneybird does not know it, service_unavailable when it cannot be asked. */
  contactDetails(contactId: string): Promise<ContactDetails>;
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') {
    return null;
  }
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** A contact's fields as a legal entity's details: the company's name or else the person's, invoice addresses or else the contact's email. */
export function detailsOfContact(contact: MoneybirdContact): ContactDetails {
  const person = [text(contact.firstname), text(contact.lastname)].filter((part): part is string => part !== null).join(' ');
  const invoiceEmails = (text(contact.send_invoices_to_email) ?? '')
    .split(/[,;]/)
    .map((email) => email.trim())
    .filter((email) => email !== '');
  const fallback = text(contact.email);
  return {
    companyName: text(contact.company_name) ?? (person === '' ? null : person),
    address1: text(contact.address1),
    address2: text(contact.address2),
    zipcode: text(contact.zipcode),
    city: text(contact.city),
    country: text(contact.country)?.toUpperCase() ?? null,
    emails: invoiceEmails.length > 0 ? invoiceEmails : fallback === null ? [] : [fallback],
    chamberOfCommerce: text(contact.chamber_of_commerce),
    taxNumber: text(contact.tax_number),
  };
}

/**
 * A small client of Moneybird's REST API v2: one contact of the administration, read with the
 * token as a Bearer token. Moneybird's 404 is moneybird_contact_id_invalid; no token, a refused
 * token, a network failure, a timeout or any other answer is service_unavailable with the reason.
 */
export class MoneybirdClient implements MoneybirdContacts {
  private readonly apiUrl: string;
  private readonly timeoutMs: number;

  constructor(private readonly settings: MoneybirdSettings | undefined) {
    this.apiUrl = (settings?.apiUrl ?? defaultMoneybirdApiUrl).replace(/\/+$/, '');
    this.timeoutMs = settings?.timeoutMs ?? 10_000;
  }

  async contact(contactId: string): Promise<MoneybirdContact> {
    const administrationId = this.settings?.administrationId;
    const token = this.settings?.apiToken;
    if (!administrationId || !token) {
      throw new GridportError('service_unavailable', { reason: 'Moneybird is not configured (MONEYBIRD_ADMINISTRATION_ID, MONEYBIRD_API_TOKEN)' });
    }
    if (!/^\d{1,20}$/.test(contactId)) {
      throw new GridportError('moneybird_contact_id_invalid', { accountingContactId: contactId });
    }
    const url = `${this.apiUrl}/${encodeURIComponent(administrationId)}/contacts/${contactId}.json`;
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as { name?: unknown } | null)?.name === 'TimeoutError';
      throw new GridportError('service_unavailable', {
        reason: timedOut ? `Moneybird did not answer within ${this.timeoutMs} ms` : 'Moneybird could not be reached',
      });
    }
    const body = await response.text().catch(() => '');
    if (response.status === 404) {
      throw new GridportError('moneybird_contact_id_invalid', { accountingContactId: contactId });
    }
    if (response.status === 401 || response.status === 403) {
      throw new GridportError('service_unavailable', {
        reason: 'Moneybird refused the token (MONEYBIRD_API_TOKEN) or the administration (MONEYBIRD_ADMINISTRATION_ID)',
      });
    }
    if (!response.ok) {
      throw new GridportError('service_unavailable', { reason: `Moneybird answered ${response.status}` });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body) as unknown;
    } catch {
      throw new GridportError('service_unavailable', { reason: 'the answer of Moneybird is not JSON' });
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new GridportError('service_unavailable', { reason: 'the answer of Moneybird is not a contact' });
    }
    const fields = parsed as Record<string, unknown>;
    const field = (name: keyof MoneybirdContact) => (typeof fields[name] === 'string' ? (fields[name] as string) : null);
    return {
      id: typeof fields.id === 'string' || typeof fields.id === 'number' ? String(fields.id) : contactId,
      company_name: field('company_name'),
      firstname: field('firstname'),
      lastname: field('lastname'),
      address1: field('address1'),
      address2: field('address2'),
      zipcode: field('zipcode'),
      city: field('city'),
      country: field('country'),
      email: field('email'),
      send_invoices_to_email: field('send_invoices_to_email'),
      chamber_of_commerce: field('chamber_of_commerce'),
      tax_number: field('tax_number'),
    };
  }

  async contactDetails(contactId: string): Promise<ContactDetails> {
    return detailsOfContact(await this.contact(contactId));
  }
}
