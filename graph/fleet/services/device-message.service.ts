import type { Knex } from 'knex';
import type { CloudToDeviceMessage } from '../../../contracts/device';
import { GridportError } from '../../../contracts/errors';
import { setConfigRefusal, type MessageSent } from '../../../contracts/firmware';
import { authorize, type Actor } from '../../common/context';
import { write } from '../../common/write';
import type { DangerousActionService } from '../../identity/services/dangerous-action.service';
import type { DeviceOutboxService } from './device-outbox.service';
import type { DeviceService } from './device.service';

/**
 * Messages staff send to a device from the admin console (POST /device/{hashId}/send-message):
 * queued in the outbox, which delivers them until the device acknowledges. A message to a
 * device in production is a dangerous action (spec README) and draws on the allowance.
 */
export class DeviceMessageService {
  constructor(
    private readonly db: Knex,
    private readonly devices: DeviceService,
    private readonly outbox: DeviceOutboxService,
    private readonly dangerousActions: DangerousActionService,
  ) {}

  /** A message from the admin console (send-message), or from a developer's channel or tunnel through an API key. */
  async send(actor: Actor, hashId: string, message: CloudToDeviceMessage): Promise<MessageSent> {
    authorize(actor, 'device.sendMessage', 'device.developerChannel');
    if (message.type === 'setConfig') {
      throw new GridportError('payload_invalid', [{ path: 'message.type', message: setConfigRefusal }]);
    }
    return write(this.db, actor, async (w) => {
      const device = await this.devices.find(actor, hashId, 'read', w.trx);
      const remainingAllowance = device.inProduction
        ? (await this.dangerousActions.spend(w.trx, actor, Math.round(device.nominalActivePowerSum), 'message')).remainingAllowance
        : null;
      const messageId = await this.outbox.enqueue(w, actor, device.id, message);
      await w.audit({
        objectType: 'devices',
        objectId: device.id,
        organizationId: device.organizationId,
        changeType: 'controllerMessageToDevice',
        diff: [{ type: 'message-to-device', name: message.type, message }],
      });
      return { messageId: String(messageId), remainingAllowance };
    });
  }
}

/** Where the ticketing tool is: HUBSPOT_PORTAL_ID (docs/operations.md). */
export interface HubspotSettings {
  portalId: string | null;
}

/**
 * Links from a device to its tickets in HubSpot (GET /device/{hashId}/hubspot). HubSpot has no
 * device object, so the link opens the portal's ticket list (object type 0-5) searched for the
 * device's hash id, which staff put in the tickets they raise about it.
 */
export class DeviceTicketService {
  constructor(
    private readonly devices: DeviceService,
    private readonly settings: HubspotSettings | undefined,
  ) {}

  async ticketPageUrl(actor: Actor, hashId: string): Promise<string> {
    authorize(actor, 'device.tickets');
    const portalId = this.settings?.portalId;
    if (!portalId) {
      throw new GridportError('service_unavailable', { reason: 'HUBSPOT_PORTAL_ID is not set' });
    }
    await this.devices.find(actor, hashId);
    return `https://app.hubspot.com/contacts/${encodeURIComponent(portalId)}/objects/0-5/views/all/list?query=${encodeURIComponent(hashId)}`;
  }
}
