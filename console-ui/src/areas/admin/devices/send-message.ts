import type { MessageSent } from '../../../../../contracts/firmware';
import type { RestClient } from '../../../api/rest';

/** Queues a cloud-to-device message for the device (POST /console-admin/v1/device/{hashId}/send-message; not in GraphQL). */
export function sendDeviceMessage(rest: RestClient, hashId: string, message: unknown): Promise<MessageSent> {
  return rest.request<MessageSent>(`/console-admin/v1/device/${encodeURIComponent(hashId)}/send-message`, { method: 'POST', body: { message } });
}
