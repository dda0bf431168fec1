import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { GridportError } from '../../../contracts/errors';
import { providerOrganizationId } from '../../../contracts/limits';
import { telephonyLimits, twilioCallSchema, type TwilioCall } from '../../../contracts/telephony';
import { validate } from '../../../contracts/validation';
import { systemActor } from '../../common/context';
import { write, type Write } from '../../common/write';
import type { ContactService } from '../../identity/services/contact.service';
import { PhoneCallModel, type Dialed } from '../models/phone-call.model';
import type { IssueJournal } from './issue-journal';
import type { OnCallService } from './on-call.service';

/**
 * Twilio (docs/operations.md, "On-call and telephony"): TWILIO_AUTH_TOKEN signs Twilio's
 * requests; `publicUrl` (PUBLIC_URL) is the address Twilio calls, which the signature covers.
 * Without the token every request is refused with service_unavailable.
 */
export interface TwilioSettings {
  authToken: string | null;
  publicUrl: string;
}

/** One request from Twilio: the path it was sent to (with its query), its form fields, and its X-Twilio-Signature. */
export interface TwilioRequest {
  url: string;
  params: Record<string, string>;
  signature: string | undefined;
}

const actor = systemActor('telephony');

/** The paths Twilio is pointed at (api.md section 7). */
export const twilioPaths = { answer: '/v1/twilio', finish: '/v1/twilio/finish', status: '/v1/twilio/status' } as const;

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function twiml(verbs: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${verbs}</Response>`;
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

/** Twilio's signature: HMAC-SHA1 with the auth token over the URL and the POST fields sorted by name, each name then value; base64. */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data =
    url +
    Object.keys(params)
      .sort()
      .map((name) => `${name}${params[name] ?? ''}`)
      .join('');
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/**
 * Incoming phone calls (api.md sections 4 and 7, spec README "Operations"): a call is answered
 * with TwiML that dials the engineer on call (the on-call ops user's contact, then the
 * incident-response contacts in turn), ends after the engineer call or offers voicemail when
 * nobody answered, and is kept on an issue of its own with its progress in the timeline.
 */
export class TelephonyService {
  constructor(
    private readonly db: Knex,
    private readonly journal: IssueJournal,
    private readonly onCall: OnCallService,
    private readonly contacts: ContactService,
    private readonly settings: TwilioSettings = { authToken: null, publicUrl: 'http://localhost:8080' },
  ) {}

  private publicUrl(path: string): string {
    return `${this.settings.publicUrl.replace(/\/+$/, '')}${path}`;
  }

  /**
   * Refuses a request Twilio did not sign with TWILIO_AUTH_TOKEN (forbidden), every request when
   * no token is configured (service_unavailable), then a body without a call (url_encoded_body_invalid).
   */
  private check(request: TwilioRequest): TwilioCall {
    const token = this.settings.authToken;
    if (!token) {
      throw new GridportError('service_unavailable', { reason: 'TWILIO_AUTH_TOKEN is not set, so no Twilio request can be checked' });
    }
    const expected = Buffer.from(twilioSignature(token, this.publicUrl(request.url), request.params));
    const given = Buffer.from(request.signature ?? '');
    if (request.signature === undefined || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new GridportError('forbidden', { reason: request.signature === undefined ? 'X-Twilio-Signature is missing' : 'X-Twilio-Signature does not match' });
    }
    return validate(twilioCallSchema, request.params, 'url_encoded_body_invalid');
  }

  /** POST /v1/twilio: a new call. Opens its issue and dials the first engineer on call (or offers voicemail). */
  async answer(request: TwilioRequest): Promise<string> {
    const call = this.check(request);
    return this.withCall(call, async (w, row) => {
      // Twilio repeats a webhook it got no answer to in time: the call is put through as before.
      const last = row.dialed.at(-1);
      return last ? this.dialTwiml(last) : this.dialNext(w, row);
    });
  }

  /**
   * POST /v1/twilio/finish: Twilio's action after the dial (or the voicemail). The engineer
   * answered: the call ends. Nobody answered: the next engineer is dialed, and after the last
   * the caller may leave a voicemail, whose recording is kept; then the call ends.
   */
  async finish(request: TwilioRequest): Promise<string> {
    const call = this.check(request);
    return this.withCall(call, async (w, row) => {
      if (call.RecordingUrl !== undefined) {
        await this.keepRecording(w, row, call);
        return twiml('<Say>Thank you, your message has been recorded. Goodbye.</Say><Hangup/>');
      }
      const last = row.dialed.at(-1);
      const who = last ? `${last.name} (${last.phone})` : 'The engineer';
      const dialStatus = call.DialCallStatus ?? 'unknown';
      if (dialStatus === 'completed' || dialStatus === 'answered') {
        await this.journal.addMessage(w, row.issueId, {
          source: 'cloud',
          isInternal: true,
          message: `${who} answered; the call ended${call.DialCallDuration ? ` after ${call.DialCallDuration} s` : ''}.`,
        });
        return twiml('<Hangup/>');
      }
      await this.journal.addMessage(w, row.issueId, { source: 'cloud', isInternal: true, message: `${who} did not answer (${dialStatus}).` });
      return this.dialNext(w, row);
    });
  }

  /** POST /v1/twilio/status: Twilio's status callback. A new status is kept and told in the timeline. */
  async status(request: TwilioRequest): Promise<void> {
    const call = this.check(request);
    await this.withCall(call, async (w, row) => {
      if (call.CallStatus !== undefined && call.CallStatus !== row.status) {
        await PhoneCallModel.query(w.trx).patch({ status: call.CallStatus, updatedAt: new Date() }).where('id', row.id);
        await this.journal.addMessage(w, row.issueId, {
          source: 'cloud',
          isInternal: true,
          message: `Call status: ${call.CallStatus}${call.CallDuration ? ` (${call.CallDuration} s)` : ''}.`,
        });
      }
      if (call.RecordingUrl !== undefined && row.recordingUrl !== call.RecordingUrl) {
        await this.keepRecording(w, row, call);
      }
    });
  }

  /**
   * Runs `work` on the call's row in one audited write; the first request of a call opens its
   * issue. Two first requests at once make one call: the second waits, then finds the first's.
   */
  private async withCall<T>(call: TwilioCall, work: (w: Write, row: PhoneCallModel) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await write(this.db, actor, async (w) => {
          const found = await PhoneCallModel.query(w.trx).findOne({ call_sid: call.CallSid }).forUpdate();
          return work(w, found ?? (await this.open(w, call)));
        });
      } catch (error) {
        if (attempt === 0 && isUniqueViolation(error)) {
          continue;
        }
        throw error;
      }
    }
  }

  private async open(w: Write, call: TwilioCall): Promise<PhoneCallModel> {
    const from = call.From && call.From !== '' ? call.From : 'an unknown number';
    const issue = await this.journal.open(w, {
      title: `Phone call from ${from}`,
      source: 'telephony',
      organizationId: null,
      gridportIssueOwner: true,
    });
    const row = await PhoneCallModel.query(w.trx).insertAndFetch({
      callSid: call.CallSid,
      issueId: issue.id,
      from: call.From ?? null,
      to: call.To ?? null,
      status: call.CallStatus ?? 'ringing',
      dialed: [],
      recordingUrl: null,
    });
    await this.journal.addMessage(w, issue.id, {
      source: 'cloud',
      isInternal: true,
      message: `Incoming call from ${from}${call.To ? ` to ${call.To}` : ''} (call ${call.CallSid}).`,
    });
    return row;
  }

  /** Whom a call is put through to, in order: the on-call ops user's contact, then the incident-response contacts. */
  async engineersToDial(db: Knex = this.db): Promise<Dialed[]> {
    const ops = await this.onCall.opsUser(db);
    const first = ops ? await this.contacts.withPhone({ email: ops.email }, db) : [];
    const irt = await this.contacts.withPhone({ role: 'irt', organizationIds: [null, providerOrganizationId] }, db);
    const seen = new Set<string>();
    const engineers: Dialed[] = [];
    for (const contact of [...first, ...irt]) {
      if (contact.phone !== null && !seen.has(contact.phone)) {
        seen.add(contact.phone);
        engineers.push({ name: contact.name, phone: contact.phone });
      }
    }
    return engineers;
  }

  /** Dials the next engineer this call has not rung yet; after the last, voicemail. */
  private async dialNext(w: Write, row: PhoneCallModel): Promise<string> {
    const tried = new Set(row.dialed.map((dialed) => dialed.phone));
    const next = (await this.engineersToDial(w.trx)).find((engineer) => !tried.has(engineer.phone));
    const finish = xml(this.publicUrl(twilioPaths.finish));
    if (!next) {
      await this.journal.addMessage(w, row.issueId, {
        source: 'cloud',
        isInternal: true,
        message:
          row.dialed.length === 0
            ? 'Nobody is on call to put the call through to; the caller may leave a voicemail.'
            : 'Nobody answered; the caller may leave a voicemail.',
      });
      return twiml(
        '<Say>Nobody can take your call right now. Please leave a message after the tone.</Say>' +
          `<Record action="${finish}" method="POST" maxLength="${telephonyLimits.voicemailMaxSeconds}" playBeep="true"/>` +
          '<Say>No message was recorded. Goodbye.</Say><Hangup/>',
      );
    }
    await PhoneCallModel.query(w.trx)
      .patch({ dialed: [...row.dialed, next], updatedAt: new Date() })
      .where('id', row.id);
    await this.journal.addMessage(w, row.issueId, { source: 'cloud', isInternal: true, message: `Putting the call through to ${next.name} (${next.phone}).` });
    return this.dialTwiml(next);
  }

  private dialTwiml(engineer: Dialed): string {
    const finish = xml(this.publicUrl(twilioPaths.finish));
    return twiml(
      `<Dial action="${finish}" method="POST" timeout="${telephonyLimits.dialTimeoutSeconds}" answerOnBridge="true"><Number>${xml(engineer.phone)}</Number></Dial>`,
    );
  }

  private async keepRecording(w: Write, row: PhoneCallModel, call: TwilioCall): Promise<void> {
    await PhoneCallModel.query(w.trx)
      .patch({ recordingUrl: call.RecordingUrl ?? null, updatedAt: new Date() })
      .where('id', row.id);
    await this.journal.addMessage(w, row.issueId, {
      source: 'cloud',
      isInternal: true,
      message: `Voicemail recorded${call.RecordingDuration ? ` (${call.RecordingDuration} s)` : ''}: ${call.RecordingUrl ?? ''}`,
    });
  }
}
