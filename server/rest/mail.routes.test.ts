import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { testApp } from '../../test-support/app';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server (the smtp-server package) that keeps what it receives. */
async function smtpPeer(): Promise<{ port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom;
        received.push({ from: mailFrom ? mailFrom.address : '', to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw });
        callback();
      });
    },
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refused.example')) {
        callback(new Error('550 mailbox unavailable'));
        return;
      }
      callback();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('mail', () => {
  it('is sent over SMTP when SMTP_URL is set, and recorded as sent', async () => {
    const peer = await smtpPeer();
    const t = await testApp(
      {},
      {
        mail: {
          smtpUrl: `smtp://127.0.0.1:${peer.port}?ignoreTLS=true`,
          from: 'Gridport <no-reply@gridport.test>',
          publicUrl: 'https://console.gridport.test',
        },
      },
    );
    try {
      const cookie = await t.signIn(['gridport.ops']);
      const response = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/mail',
        headers: { cookie },
        payload: { to: ['ops@example.com'], subject: 'Test from Gridport', text: 'It works.' },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ mailHashId: expect.any(String), status: 'sent' });
      expect(peer.received).toHaveLength(1);
      expect(peer.received[0]).toMatchObject({ from: 'no-reply@gridport.test', to: ['ops@example.com'] });
      expect(peer.received[0]?.raw).toMatch(/^Subject: Test from Gridport\r?$/m);
      expect(peer.received[0]?.raw).toContain('It works.');
      expect(await t.database.db('mails').select('status', 'subject')).toEqual([{ status: 'sent', subject: 'Test from Gridport' }]);

      const refused = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/mail',
        headers: { cookie },
        payload: { to: ['someone@refused.example'], subject: 'Refused', text: 'No.' },
      });
      expect(refused.json()).toEqual({ mailHashId: expect.any(String), status: 'failed' });
      const failed = await t.database.db('mails').where('subject', 'Refused').first();
      expect(failed).toMatchObject({ status: 'failed', error: expect.stringContaining('550') });
    } finally {
      await t.close();
      await peer.close();
    }
  });

  it('is kept in the database and logged when no SMTP server is configured', async () => {
    const t = await testApp();
    try {
      const cookie = await t.signIn(['gridport.developer']);
      const response = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/mail',
        headers: { cookie },
        payload: { to: ['dev@example.com'], subject: 'Kept', text: 'Read me from the database.' },
      });
      expect(response.json()).toEqual({ mailHashId: expect.any(String), status: 'kept' });
      expect(await t.database.db('mails').select('to', 'status', 'text')).toEqual([
        { to: ['dev@example.com'], status: 'kept', text: 'Read me from the database.' },
      ]);
    } finally {
      await t.close();
    }
  });

  it('is refused to those without the ops or developer right, and checks its addresses', async () => {
    const t = await testApp();
    try {
      const sales = await t.signIn(['gridport.sales']);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/console-admin/v1/mail',
            headers: { cookie: sales },
            payload: { to: ['a@example.com'], subject: 's', text: 't' },
          })
        ).statusCode,
      ).toBe(403);
      const ops = await t.signIn(['gridport.ops']);
      const invalid = await t.app.inject({
        method: 'POST',
        url: '/console-admin/v1/mail',
        headers: { cookie: ops },
        payload: { to: ['not-an-address'], subject: 's', text: 't' },
      });
      expect(invalid.json()).toEqual({ key: 'payload_invalid', details: [{ path: 'to[0]', message: 'Invalid email (RFC 5322)' }] });
    } finally {
      await t.close();
    }
  });
});
