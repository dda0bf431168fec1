import type { Knex } from 'knex';
import { classifyScheduleItem, type ParametersBody, type ScheduleBody, type ScheduleItem } from '../../../contracts/device';
import { GridportError } from '../../../contracts/errors';
import type { SteeringResult, V2DeviceListQuery, V2DeviceView } from '../../../contracts/fleet';
import { authorize, type Actor } from '../../common/context';
import { encodeCursor, decodeCursor } from '../../common/cursor';
import type { HashIds } from '../../common/hash-ids';
import { write, type Write } from '../../common/write';
import type { DangerousActionService } from '../../identity/services/dangerous-action.service';
import { DeviceComponentModel } from '../models/device-component.model';
import { type DeviceModel } from '../models/device.model';
import { DeviceScheduleModel } from '../models/device-schedule.model';
import type { DeviceService } from './device.service';
import type { DeviceOutboxService } from './device-outbox.service';

type Kind = 'asset' | 'controller';

/** The asset or controller type each parameter type is for (device-model.md section 3.8). */
const parameterTargets = {
  sagerFurnace: { kind: 'asset', types: ['sager-furnace'] },
  demoBattery: { kind: 'asset', types: ['demo-battery'] },
  hedno: { kind: 'controller', types: ['gridOperatorHedno'] },
} as const satisfies Record<string, { kind: Kind; types: readonly string[] }>;

/** An addressed asset or controller with its device. */
interface Target {
  component: DeviceComponentModel;
  device: DeviceModel;
}

/**
 * Steering through the public API (api.md sections 4, 5, 7; spec README "Schedule items",
 * "Asset parameters", "Commands in the past", "Dangerous actions"): PUT /v2/schedule,
 * PUT /v1/parameters, and the device list GET /v2/device that tells a client what it can steer.
 */
export class SteeringService {
  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly devices: DeviceService,
    private readonly outbox: DeviceOutboxService,
    private readonly dangerousActions: DangerousActionService,
  ) {}

  /**
   * The assets (or controllers) that the identifiers name on the devices the actor may steer.
   * An identifier that names none is unknown_identifier (all of them, in `identifiers`); a
   * device whose cloud API level is not READ_WRITE is 403 forbidden with its hash id.
   */
  private async targets(trx: Knex.Transaction, actor: Actor, kind: Kind, identifiers: readonly string[]): Promise<Target[]> {
    const devices = await this.devices
      .accessible(actor, 'write', trx)
      .whereExists(
        DeviceComponentModel.query()
          .whereColumn('device_components.device_id', 'devices.id')
          .where('device_components.kind', kind)
          .whereIn('device_components.identifier', identifiers),
      )
      .forUpdate();
    const components =
      devices.length === 0
        ? []
        : await DeviceComponentModel.query(trx)
            .whereIn(
              'device_id',
              devices.map((device) => device.id),
            )
            .where('kind', kind)
            .whereIn('identifier', identifiers)
            .orderBy(['device_id', 'index']);
    const named = new Set(components.map((component) => component.identifier));
    const unknown = identifiers.filter((identifier) => !named.has(identifier));
    if (unknown.length > 0) {
      throw new GridportError('unknown_identifier', { identifiers: unknown });
    }
    const readOnly = devices.filter((device) => device.cloudApi !== 'READ_WRITE');
    if (readOnly.length > 0) {
      throw new GridportError('forbidden', {
        reason: 'the cloud API level of these devices is not READ_WRITE',
        deviceHashIds: readOnly.map((device) => this.hashIds.encode('device', device.id)),
      });
    }
    const byId = new Map(devices.map((device) => [device.id, device]));
    return components.flatMap((component) => {
      const device = byId.get(component.deviceId);
      return device ? [{ component, device }] : [];
    });
  }

  /**
   * Draws on the user's dangerous-action allowance for the targets on devices in production:
   * the nominal active power of each addressed asset (of the whole device for a controller).
   */
  private async spend(w: Write, actor: Actor, targets: readonly Target[], action: string): Promise<number | null> {
    const production = targets.filter(({ device }) => device.inProduction);
    if (production.length === 0) {
      return null;
    }
    const watts = production.reduce(
      (sum, { component, device }) => sum + Math.round(component.kind === 'asset' ? (component.nominalActivePower ?? 0) : device.nominalActivePowerSum),
      0,
    );
    return (await this.dangerousActions.spend(w.trx, actor, watts, action)).remainingAllowance;
  }

  /** The device hash ids of the targets, each once, in order. */
  private deviceHashIds(targets: readonly Target[]): string[] {
    return [...new Set(targets.map(({ device }) => device.id))].map((id) => this.hashIds.encode('device', id));
  }

  /**
   * PUT /v2/schedule: replaces the schedule of every asset (or controller) with the given
   * identifiers on the devices the actor may steer, and queues it for each device. Commands
   * that ended within the last 24 hours are dropped; an older end, a start too far ahead or an
   * interval too long refuses the call.
   */
  async setSchedule(actor: Actor, body: ScheduleBody, now = new Date()): Promise<SteeringResult> {
    authorize(actor, 'steering.setSchedule');
    const kind: Kind = body.assetIdentifiers ? 'asset' : 'controller';
    const identifiers = body.assetIdentifiers ?? body.controllerIdentifiers ?? [];
    // The item type yup infers through the tagged command union is loose; the schema has checked these fields.
    const schedule = body.schedule as unknown as (ScheduleItem & { startAt: string; endAt: string })[];
    const kept: ScheduleItem[] = [];
    for (const [index, item] of schedule.entries()) {
      const verdict = classifyScheduleItem(item, now);
      if (verdict === 'ok') {
        kept.push(item);
      } else if (verdict !== 'drop') {
        throw new GridportError(verdict, { index, startAt: item.startAt, endAt: item.endAt });
      }
    }
    return write(this.db, actor, async (w) => {
      const targets = await this.targets(w.trx, actor, kind, identifiers);
      const remainingAllowance = await this.spend(w, actor, targets, 'schedule');
      const updatedAt = new Date();
      for (const { component, device } of targets) {
        await this.outbox.enqueue(w, actor, device.id, {
          type: 'setAssetSchedule',
          ...(kind === 'asset' ? { assetIndex: component.index } : { controlLoopIndex: component.index }),
          schedule: kept,
        });
      }
      for (const device of new Map(targets.map(({ device }) => [device.id, device])).values()) {
        for (const identifier of new Set(targets.filter((target) => target.device.id === device.id).map(({ component }) => component.identifier ?? ''))) {
          await DeviceScheduleModel.query(w.trx)
            .insert({ deviceId: device.id, kind, identifier, items: kept, updatedByUserId: actor.userId, updatedAt })
            .onConflict(['device_id', 'kind', 'identifier'])
            .merge();
        }
        await w.audit({
          objectType: 'devices',
          objectId: device.id,
          organizationId: device.organizationId,
          changeType: 'controllerMessageToDevice',
          diff: [{ type: 'message-to-device', name: 'setAssetSchedule', message: { kind, identifiers, schedule: kept } }],
        });
      }
      return { deviceHashIds: this.deviceHashIds(targets), droppedCommands: body.schedule.length - kept.length, remainingAllowance };
    });
  }

  /** PUT /v1/parameters: writes the parameters to every asset (or hedno loop) with the given identifiers, through the outbox. */
  async setParameters(actor: Actor, body: ParametersBody): Promise<SteeringResult> {
    authorize(actor, 'steering.setParameters');
    const parameterType = (body.parameters as { type: keyof typeof parameterTargets }).type;
    const { kind, types } = parameterTargets[parameterType];
    return write(this.db, actor, async (w) => {
      const targets = await this.targets(w.trx, actor, kind, body.assetIdentifiers);
      const mismatched = targets.filter(({ component }) => !(types as readonly string[]).includes(component.type));
      if (mismatched.length > 0) {
        throw new GridportError('payload_invalid', [
          {
            path: 'assetIdentifiers',
            message: `${parameterType} parameters are for ${types.join(', ')}; ${[...new Set(mismatched.map(({ component }) => `${component.identifier ?? ''} is a ${component.type}`))].join(', ')}`,
          },
        ]);
      }
      const remainingAllowance = await this.spend(w, actor, targets, 'parameters');
      for (const { component, device } of targets) {
        await this.outbox.enqueue(w, actor, device.id, {
          type: 'setAssetParameters',
          ...(kind === 'asset' ? { assetIndex: component.index } : { controlLoopIndex: component.index }),
          parameters: body.parameters,
        });
      }
      for (const device of new Map(targets.map(({ device }) => [device.id, device])).values()) {
        await w.audit({
          objectType: 'devices',
          objectId: device.id,
          organizationId: device.organizationId,
          changeType: 'controllerMessageToDevice',
          diff: [{ type: 'message-to-device', name: 'setAssetParameters', message: { identifiers: body.assetIdentifiers, parameters: body.parameters } }],
        });
      }
      return { deviceHashIds: this.deviceHashIds(targets), droppedCommands: 0, remainingAllowance };
    });
  }

  /**
   * GET /v2/device: the devices the actor may see whose cloud API is on, oldest first, with
   * their assets, controllers and schedules; in a fixed number of queries per page.
   */
  async list(actor: Actor, query: V2DeviceListQuery): Promise<{ devices: V2DeviceView[]; nextPageOffset: string | null }> {
    authorize(actor, 'steering.listDevices');
    const builder = this.devices
      .accessible(actor)
      .whereNot('devices.cloud_api', 'OFF')
      .orderBy('devices.id')
      .limit(query.rowsPerPage + 1);
    if (query.offset) {
      const [after] = decodeCursor(query.offset, ['number']);
      void builder.where('devices.id', '>', after as number);
    }
    const rows = await builder;
    const page = rows.slice(0, query.rowsPerPage);
    const last = page[page.length - 1];
    const views = await this.devices.present(actor, page);
    return {
      devices: views.map((view, index) => ({
        hashId: view.hashId,
        name: view.name,
        cloudApi: view.cloudApi === 'READ_WRITE' ? 'READ_WRITE' : 'READ',
        reportingInterval: view.reportingInterval,
        dataForwarding: view.exportMessages && view.inProduction,
        inProduction: view.inProduction,
        isOnline: page[index]?.online ?? false,
        assets: view.assets.map(({ type, category, identifier, nominalActivePower, schedule }) => ({
          type,
          category,
          identifier,
          nominalActivePower,
          schedule,
        })),
        controllers: view.controllers,
      })),
      nextPageOffset: rows.length > query.rowsPerPage && last ? encodeCursor([last.id]) : null,
    };
  }
}
