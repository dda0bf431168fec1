import { assetHandlers } from './assets';
import { configHandlers } from './config';
import type { MessageCall, MessageHandler, MessageHandlers, MessageType } from './context';
import { diagnosticHandlers } from './diagnostics';
import { fieldCommandHandlers } from './field-commands';
import { lifecycleHandlers } from './lifecycle';

/** Every cloud-to-device message type of device-model.md section 3.10 and its handler, by family. */
export const messageHandlers: MessageHandlers = {
  ...configHandlers,
  ...fieldCommandHandlers,
  ...assetHandlers,
  ...lifecycleHandlers,
  ...diagnosticHandlers,
};

/** Carries out a message with its type's handler. */
export function carryOut<T extends MessageType>(type: T, call: MessageCall<T>): Promise<boolean> {
  const handler: MessageHandler<T> = messageHandlers[type];
  return handler(call);
}
