import { raw, type QueryBuilder } from 'objection';
import { isStaff, type Actor } from '../../common/context';
import type { DeviceModel } from '../models/device.model';

/** What an actor wants to do with devices: see them, or send them schedules, parameters and messages. */
export type DeviceAccess = 'read' | 'write';

/**
 * Limits a query over `devices` to those the actor may see (read) or steer (write). Staff see
 * and steer every device. A customer sees the devices exposed to customers that belong to their
 * organisation or that a partnership shares with it (all the owner's devices, or the listed
 * ones); to steer a shared device the partnership's role must be operator. An API key linked to
 * device groups is limited to the devices of those groups.
 */
export function limitToAccessible(builder: QueryBuilder<DeviceModel, DeviceModel[]>, actor: Actor, access: DeviceAccess = 'read'): void {
  if (isStaff(actor)) {
    return;
  }
  const organizationId = actor.organizationId ?? -1;
  void builder.where('devices.is_exposed_to_customer', true).where((scope) => {
    void scope.where('devices.organization_id', organizationId).orWhereExists((shared) => {
      void shared
        .select(raw('1'))
        .from('partnerships')
        .where('partnerships.partner_organization_id', organizationId)
        .whereRaw('partnerships.owner_organization_id = devices.organization_id')
        .where((listed) => {
          void listed.where('partnerships.all_devices', true).orWhereExists((row) => {
            void row
              .select(raw('1'))
              .from('partnership_devices')
              .whereRaw('partnership_devices.partnership_id = partnerships.id')
              .whereRaw('partnership_devices.device_id = devices.id');
          });
        });
      if (access === 'write') {
        void shared.where('partnerships.role', 'operator');
      }
    });
  });
  if (actor.kind === 'apiKey' && actor.apiKeyId !== null) {
    const apiKeyId = actor.apiKeyId;
    void builder.where((scope) => {
      void scope
        .whereNotExists((links) => {
          void links.select(raw('1')).from('device_group_api_keys').where('device_group_api_keys.api_key_id', apiKeyId);
        })
        .orWhereIn('devices.device_group_id', (linked) => {
          void linked.select('device_group_id').from('device_group_api_keys').where('device_group_api_keys.api_key_id', apiKeyId);
        });
    });
  }
}
