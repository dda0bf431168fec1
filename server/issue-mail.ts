import type { Config } from './config';
import type { Logger } from './logger';
import type { Services } from '../graph/services';
import { IssueMailWorker, issueMailIntervalMs } from '../graph/operations/services/issue-mailer.worker';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver';

export interface IssueMailRunning {
  /** The SMTP receiver, when SMTP_INBOUND_PORT is set. */
  smtpReceiver: SmtpReceiver | null;
  /** Stops taking mail, then stops the worker after the pass under way. */
  close(): Promise<void>;
}

/**
 * Issue mail on this node (docs/operations.md, "Mail in and out"): the worker that mails issue
 * messages out runs on every node; the SMTP receiver that takes mail in runs where
 * SMTP_INBOUND_PORT is set.
 */
export async function startIssueMail(
  config: Pick<Config, 'mailInbound' | 'tls'>,
  services: Services,
  log: Logger,
  intervalMs: number = issueMailIntervalMs,
): Promise<IssueMailRunning> {
  const worker = new IssueMailWorker(services.issueMailer, log, intervalMs);
  worker.start();
  let smtpReceiver: SmtpReceiver | null = null;
  try {
    if (config.mailInbound.port !== null) {
      smtpReceiver = await startSmtpReceiver({ host: config.mailInbound.host, port: config.mailInbound.port, tls: config.tls }, services.incomingMail, log);
    }
  } catch (error) {
    await worker.stop();
    throw error;
  }
  return {
    smtpReceiver,
    close: async () => {
      await smtpReceiver?.close();
      await worker.stop();
    },
  };
}
