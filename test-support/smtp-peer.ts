import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope: MAIL FROM and RCPT TO. */
  from: string;
  to: string[];
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpPeer {
  port: number;
  /** The SMTP_URL that reaches it. */
  url: string;
  received: ReceivedMail[];
  /** While true, recipients at busy.example are answered 451 (try again later). */
  busy: boolean;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package), as the outside mail server Gridport's MailService
 * connects to through SMTP_URL: it keeps every mail it receives, parsed with mailparser. Recipients
 * at refused.example are refused (550), and those at busy.example answered 451 while `busy`.
 */
export async function smtpPeer(): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const peer: SmtpPeer = {
    port: 0,
    url: '',
    received,
    busy: true,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            const mailFrom = session.envelope.mailFrom;
            received.push({ from: mailFrom ? mailFrom.address : '', to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, parsed });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refused.example')) {
        callback(new Error('550 mailbox unavailable'));
        return;
      }
      if (address.address.endsWith('@busy.example') && peer.busy) {
        callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
        return;
      }
      callback();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  peer.port = port;
  peer.url = `smtp://127.0.0.1:${port}?ignoreTLS=true`;
  return peer;
}
