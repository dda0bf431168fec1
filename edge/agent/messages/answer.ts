import { ValidationError } from 'yup';
import { cloudToDeviceMessageSchema, configIssues } from '../../../contracts/device/config';
import type { IncomingMessage } from '../../gateway-client/client';
import { errorText } from '../journal';
import { agentErrorCodes } from '../reporter';
import type { AgentServices, MessageOf, MessageType } from './context';
import { carryOut } from './handlers';

/**
 * Validates one message, carries it out with its handler and answers it: with its own report
 * and an ack report, or an error report (invalid_message, invalid_config, command_failed or the
 * handler's own code). Resolves once the answer is stored; then the client acknowledges the envelope.
 */
export async function answerMessage({ id, payload }: IncomingMessage, agent: AgentServices): Promise<void> {
  const { reporter } = agent;
  let message: MessageOf<MessageType>;
  try {
    message = cloudToDeviceMessageSchema.validateSync(payload, { abortEarly: false });
  } catch (error) {
    const type = typeof (payload as { type?: unknown } | null)?.type === 'string' ? String((payload as { type: string }).type).slice(0, 64) : undefined;
    const isConfig = type === 'setConfig';
    const issues = isConfig ? configIssues((payload as { config?: unknown }).config) : issuesText(error);
    const text = Array.isArray(issues) ? issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ') : issues;
    agent.log('warn', `message ${id} refused: ${text}`);
    await reporter.send(
      reporter.error(isConfig ? agentErrorCodes.invalidConfig : agentErrorCodes.invalidMessage, `The message is not valid: ${text}`, {
        messageId: id,
        ...(type ? { messageType: type } : {}),
      }),
    );
    return;
  }
  agent.log('info', `message ${id}: ${message.type}`);
  const fail = async (code: string, text: string, asset?: number): Promise<boolean> => {
    await reporter.send(reporter.error(code, text, { messageId: id, messageType: message.type, ...(asset === undefined ? {} : { asset }) }));
    return false;
  };
  try {
    const acknowledged = await carryOut(message.type, { id, message, agent, fail });
    if (acknowledged) {
      await reporter.send({ type: 'ack', at: reporter.at(), observations: { messageId: id, messageType: message.type } });
    }
  } catch (error) {
    const reason = errorText(error);
    agent.log('error', `message ${id} (${message.type}) failed: ${reason}`);
    await reporter.send(reporter.error(agentErrorCodes.commandFailed, reason, { messageId: id, messageType: message.type }));
  }
}

function issuesText(error: unknown): { path: string; message: string }[] | string {
  if (error instanceof ValidationError) {
    return error.inner.length > 0
      ? error.inner.map((inner) => ({ path: inner.path ?? '', message: inner.message }))
      : [{ path: error.path ?? '', message: error.message }];
  }
  return errorText(error);
}
