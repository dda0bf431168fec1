import { createHmac } from 'node:crypto';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { systemActor } from '../../graph/common/context';
import { testApp, type TestApp } from '../../test-support/app';
import { buildUser } from '../../test-support/factories';

const authToken = 'twilio-test-auth-token';
const publicUrl = 'https://gridport.example.com';
const system = systemActor('test');

/** Twilio's request signature, written out from its documentation: HMAC-SHA1 over the URL and each POST field (sorted by name) as name then value, base64. */
function signed(url: string, params: Record<string, string>, token = authToken): string {
  const names = Object.keys(params).sort();
  return createHmac('sha1', token)
    .update(url + names.map((name) => name + params[name]).join(''))
    .digest('base64');
}

function form(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

let sequence = 0;
/** A fresh call SID: CA and 32 hexadecimal digits. */
function callSid(): string {
  sequence += 1;
  return `CA${String(sequence).padStart(32, '0')}`;
}

/** The verbs of a TwiML answer, as element names with their attributes and text. */
function verbs(xml: string): { verb: string; attributes: Record<string, string>; text: string; children: { verb: string; text: string }[] }[] {
  const document = new DOMParser().parseFromString(xml, 'text/xml');
  const root = document.documentElement;
  if (!root || root.nodeName !== 'Response') {
    throw new Error(`not TwiML: ${xml}`);
  }
  const elements = (parent: Element): Element[] => {
    const found: Element[] = [];
    for (let index = 0; index < parent.childNodes.length; index += 1) {
      const node = parent.childNodes.item(index);
      if (node && node.nodeType === 1) {
        found.push(node as Element);
      }
    }
    return found;
  };
  const attributesOf = (element: Element): Record<string, string> => {
    const found: Record<string, string> = {};
    for (let index = 0; index < element.attributes.length; index += 1) {
      const attribute = element.attributes.item(index);
      if (attribute) {
        found[attribute.name] = attribute.value;
      }
    }
    return found;
  };
  return elements(root).map((element) => ({
    verb: element.nodeName,
    attributes: attributesOf(element),
    text: element.textContent ?? '',
    children: elements(element).map((child) => ({ verb: child.nodeName, text: child.textContent ?? '' })),
  }));
}

describe('telephony (/v1/twilio)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testApp({}, { twilio: { authToken, publicUrl } });
  });

  afterAll(async () => {
    await t.close();
  });

  /** A request as Twilio sends it: form fields, signed over the public URL unless told otherwise. */
  function twilio(path: string, params: Record<string, string>, signature: string | null = signed(`${publicUrl}${path}`, params)) {
    return t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature === null ? {} : { 'x-twilio-signature': signature }) },
      payload: form(params),
    });
  }

  const incoming = (sid: string, extra: Record<string, string> = {}) => ({
    CallSid: sid,
    AccountSid: 'AC00000000000000000000000000000000',
    From: '+31612345678',
    To: '+31201234567',
    CallStatus: 'ringing',
    Direction: 'inbound',
    ApiVersion: '2010-04-01',
    ...extra,
  });

  const issueOf = async (sid: string) => {
    const call = (await t.database.db('phone_calls').where('call_sid', sid).first()) as
      { issue_id: number; status: string; dialed: unknown; recording_url: string | null } | undefined;
    if (!call) {
      return null;
    }
    const issue = (await t.database.db('issues').where('id', call.issue_id).first('title', 'source', 'gridport_issue_owner', 'organization_id')) as Record<
      string,
      unknown
    >;
    const messages = (await t.database.db('issue_messages').where('issue_id', call.issue_id).orderBy('id').select('source', 'message')) as {
      source: string;
      message: string;
    }[];
    return { call, issue, messages };
  };

  async function setOnCall(email: string | null): Promise<void> {
    const user = email === null ? null : await buildUser(t.services, { email, name: 'On-call Engineer', rights: ['gridport.ops'] });
    await t.services.onCall.setOps(system, { userHashId: user ? user.hashId : null });
  }

  describe('checks every request against X-Twilio-Signature', () => {
    it.each([
      ['without a signature', null, 'X-Twilio-Signature is missing'],
      ['signed with another token', signed(`${publicUrl}/v1/twilio`, incoming('CA' + 'f'.repeat(32)), 'another-token'), 'X-Twilio-Signature does not match'],
      ['signed over another URL', signed('http://localhost:8080/v1/twilio', incoming('CA' + 'f'.repeat(32))), 'X-Twilio-Signature does not match'],
    ])('refuses a request %s with forbidden, keeping nothing', async (_what, signature, reason) => {
      const params = incoming('CA' + 'f'.repeat(32));
      const response = await twilio('/v1/twilio', params, signature);
      expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({ status: 403, body: { key: 'forbidden', details: { reason } } });
      expect(await issueOf(params.CallSid)).toBeNull();
    });

    it('refuses a request whose fields were changed after signing', async () => {
      const params = incoming(callSid());
      const response = await twilio('/v1/twilio', { ...params, From: '+31699999999' }, signed(`${publicUrl}/v1/twilio`, params));
      expect(response.statusCode).toBe(403);
    });

    it('refuses every request when TWILIO_AUTH_TOKEN is not set', async () => {
      const unconfigured = await testApp();
      try {
        const params = incoming(callSid());
        const response = await unconfigured.app.inject({
          method: 'POST',
          url: '/v1/twilio',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signed(`${publicUrl}/v1/twilio`, params) },
          payload: form(params),
        });
        expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({
          status: 503,
          body: { key: 'service_unavailable', details: { reason: 'TWILIO_AUTH_TOKEN is not set, so no Twilio request can be checked' } },
        });
      } finally {
        await unconfigured.close();
      }
    });
  });

  describe('a body that cannot be read', () => {
    it('is url_encoded_body_invalid when it does not decode', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/twilio',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'x' },
        payload: 'CallSid=%E0%A4%A&From=%2B31',
      });
      expect({ status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({ status: 400, key: 'url_encoded_body_invalid' });
    });

    it('is url_encoded_body_invalid when it is not a form', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/twilio/status',
        headers: { 'content-type': 'application/json' },
        payload: '{"CallSid":"x"}',
      });
      expect({ status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({ status: 400, key: 'url_encoded_body_invalid' });
    });

    it('is url_encoded_body_invalid, naming the field, when a signed body has no call SID or a wrong one', async () => {
      for (const params of [{ From: '+31612345678' }, { CallSid: 'not-a-call', From: '+31612345678' }] as Record<string, string>[]) {
        const response = await twilio('/v1/twilio', params);
        expect({ status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({ status: 400, key: 'url_encoded_body_invalid' });
        expect((response.json() as { details: { path: string }[] }).details.map((issue) => issue.path)).toEqual(['CallSid']);
      }
    });
  });

  describe('an incoming call', () => {
    it('is answered with TwiML that dials the on-call engineer, and kept on a new issue', async () => {
      await setOnCall('night.engineer@example.com');
      await t.services.contacts.create(system, {
        roles: [],
        organizationId: null,
        name: 'Night Engineer',
        email: 'Night.Engineer@example.com',
        phone: '+31611111111',
      });
      await t.services.contacts.create(system, {
        roles: ['irt'],
        organizationId: null,
        name: 'IRT Lead',
        email: 'irt.lead@example.com',
        phone: '+31622222222',
      });
      await t.services.contacts.create(system, { roles: ['irt'], organizationId: null, name: 'No Phone', email: 'no.phone@example.com', phone: null });

      const sid = callSid();
      const response = await twilio('/v1/twilio', incoming(sid));
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/xml/);
      expect(verbs(response.payload)).toEqual([
        {
          verb: 'Dial',
          attributes: { action: `${publicUrl}/v1/twilio/finish`, method: 'POST', timeout: '25', answerOnBridge: 'true' },
          text: '+31611111111',
          children: [{ verb: 'Number', text: '+31611111111' }],
        },
      ]);

      const kept = await issueOf(sid);
      expect(kept?.issue).toEqual({ title: 'Phone call from +31612345678', source: 'telephony', gridport_issue_owner: true, organization_id: null });
      expect(kept?.call).toMatchObject({ status: 'ringing', dialed: [{ name: 'Night Engineer', phone: '+31611111111' }] });
      expect(kept?.messages).toEqual([
        { source: 'cloud', message: `Incoming call from +31612345678 to +31201234567 (call ${sid}).` },
        { source: 'cloud', message: 'Putting the call through to Night Engineer (+31611111111).' },
      ]);
    });

    it('puts a repeated first request through to the same engineer, on the same issue', async () => {
      const sid = callSid();
      const first = await twilio('/v1/twilio', incoming(sid));
      const again = await twilio('/v1/twilio', incoming(sid));
      expect(again.payload).toBe(first.payload);
      const kept = await issueOf(sid);
      expect(kept?.call.dialed).toEqual([{ name: 'Night Engineer', phone: '+31611111111' }]);
      expect(kept?.messages).toHaveLength(2);
    });

    it('keeps its status updates on the same issue, once each', async () => {
      const sid = callSid();
      await twilio('/v1/twilio', incoming(sid));
      const before = await issueOf(sid);
      for (const [status, duration] of [
        ['in-progress', undefined],
        ['in-progress', undefined],
        ['completed', '42'],
      ] as const) {
        const response = await twilio('/v1/twilio/status', incoming(sid, { CallStatus: status, ...(duration ? { CallDuration: duration } : {}) }));
        expect({ status: response.statusCode, body: response.payload }).toEqual({ status: 204, body: '' });
      }
      const after = await issueOf(sid);
      expect(after?.call.issue_id).toBe(before?.call.issue_id);
      expect(after?.call.status).toBe('completed');
      expect(after?.messages.slice(-2)).toEqual([
        { source: 'cloud', message: 'Call status: in-progress.' },
        { source: 'cloud', message: 'Call status: completed (42 s).' },
      ]);
      expect(
        await t.database.db('issues').where('source', 'telephony').whereIn('id', t.database.db('phone_calls').where('call_sid', sid).select('issue_id')),
      ).toHaveLength(1);
    });

    it('ends when the engineer answered; otherwise dials the next engineer, then offers voicemail and keeps the recording', async () => {
      const sid = callSid();
      await twilio('/v1/twilio', incoming(sid));

      const next = await twilio('/v1/twilio/finish', incoming(sid, { CallStatus: 'in-progress', DialCallStatus: 'no-answer' }));
      expect(verbs(next.payload).map((verb) => [verb.verb, verb.text])).toEqual([['Dial', '+31622222222']]);

      const voicemail = await twilio('/v1/twilio/finish', incoming(sid, { CallStatus: 'in-progress', DialCallStatus: 'busy' }));
      const offered = verbs(voicemail.payload);
      expect(offered.map((verb) => verb.verb)).toEqual(['Say', 'Record', 'Say', 'Hangup']);
      expect(offered[1]?.attributes).toEqual({ action: `${publicUrl}/v1/twilio/finish`, method: 'POST', maxLength: '300', playBeep: 'true' });

      const recordingUrl = 'https://api.twilio.com/2010-04-01/Accounts/AC00000000000000000000000000000000/Recordings/RE00000000000000000000000000000001';
      const recorded = await twilio('/v1/twilio/finish', incoming(sid, { CallStatus: 'completed', RecordingUrl: recordingUrl, RecordingDuration: '17' }));
      expect(verbs(recorded.payload).map((verb) => verb.verb)).toEqual(['Say', 'Hangup']);

      const kept = await issueOf(sid);
      expect(kept?.call.recording_url).toBe(recordingUrl);
      expect(kept?.call.dialed).toEqual([
        { name: 'Night Engineer', phone: '+31611111111' },
        { name: 'IRT Lead', phone: '+31622222222' },
      ]);
      expect(kept?.messages.slice(2).map((message) => message.message)).toEqual([
        'Night Engineer (+31611111111) did not answer (no-answer).',
        'Putting the call through to IRT Lead (+31622222222).',
        'IRT Lead (+31622222222) did not answer (busy).',
        'Nobody answered; the caller may leave a voicemail.',
        `Voicemail recorded (17 s): ${recordingUrl}`,
      ]);

      const answered = callSid();
      await twilio('/v1/twilio', incoming(answered));
      const ended = await twilio('/v1/twilio/finish', incoming(answered, { CallStatus: 'completed', DialCallStatus: 'completed', DialCallDuration: '95' }));
      expect(verbs(ended.payload).map((verb) => verb.verb)).toEqual(['Hangup']);
      expect((await issueOf(answered))?.messages.at(-1)?.message).toBe('Night Engineer (+31611111111) answered; the call ended after 95 s.');
    });

    it('dials the incident-response contacts in turn when the on-call engineer has no contact, and offers voicemail when there is nobody', async () => {
      await setOnCall('without.contact@example.com');
      const sid = callSid();
      expect(verbs((await twilio('/v1/twilio', incoming(sid))).payload).map((verb) => verb.text)).toEqual(['+31622222222']);

      await t.database.db('contacts').update({ roles: JSON.stringify([]) });
      await setOnCall(null);
      const nobody = callSid();
      expect(verbs((await twilio('/v1/twilio', incoming(nobody))).payload).map((verb) => verb.verb)).toEqual(['Say', 'Record', 'Say', 'Hangup']);
      expect((await issueOf(nobody))?.messages.at(-1)?.message).toBe('Nobody is on call to put the call through to; the caller may leave a voicemail.');
    });

    it('signs over the query string too, as Twilio does', async () => {
      const params = incoming(callSid());
      const response = await twilio('/v1/twilio?site=main', params, signed(`${publicUrl}/v1/twilio?site=main`, params));
      expect(response.statusCode).toBe(200);
      expect((await twilio('/v1/twilio?site=other', params, signed(`${publicUrl}/v1/twilio?site=main`, params))).statusCode).toBe(403);
    });
  });
});
