import type { MessageSent, SendMessage } from '../../../../../contracts/firmware';
import type { RestClient } from '../../../api/rest';

/**
 * The body of send-message as the debugging tab sends it: the contract's fields with the JSON the
 * user typed, unchecked here; the server checks it against the shared message schema.
 */
export type UncheckedSendMessage = { [Field in keyof SendMessage]: unknown };

/** The cloud-to-device message calls of the admin console (not in GraphQL; shapes from contracts/firmware.ts). */
export function deviceMessageApi(rest: RestClient) {
  return {
    /** Queues a message for the device (POST /console-admin/v1/device/{hashId}/send-message). */
    send: (hashId: string, body: UncheckedSendMessage) =>
      rest.request<MessageSent>(`/console-admin/v1/device/${encodeURIComponent(hashId)}/send-message`, { method: 'POST', body }),
  };
}
