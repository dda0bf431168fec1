import type { Knex } from 'knex';
import { GridportError } from '../../../contracts/errors';
import { isSemver, type DangerousActionResult, type FirmwarePin, type LatestFirmware } from '../../../contracts/firmware';
import { authorize, type Actor } from '../../common/context';
import { diffObjects } from '../../common/diff';
import { write } from '../../common/write';
import type { DangerousActionService } from '../../identity/services/dangerous-action.service';
import { DeviceModel } from '../models/device.model';
import { BalenaClient, type BalenaRelease, type BalenaSettings } from './balena.client';
import type { DeviceService } from './device.service';

/** The version a release is known by: its semver, else its raw version. */
function versionOf(release: BalenaRelease): string {
  return release.semver || release.raw_version;
}

/**
 * Firmware of the gateways (console.md sections 7 and 8): pinning a device to a release of the
 * Balena fleet, and the fleet's latest release. Pinning a device in production is a dangerous
 * action (spec README) and draws on the user's allowance.
 */
export class FirmwareService {
  private readonly balena: BalenaClient | null;

  constructor(
    private readonly db: Knex,
    private readonly devices: DeviceService,
    private readonly dangerousActions: DangerousActionService,
    settings: BalenaSettings | undefined,
  ) {
    this.balena = BalenaClient.fromSettings(settings);
  }

  private client(): BalenaClient {
    if (!this.balena) {
      throw new GridportError('no_balena_credentials', { reason: 'BALENA_API_TOKEN and BALENA_FLEET_ID are not both set' });
    }
    return this.balena;
  }

  /** GET /latest-firmware: the version of the fleet's newest successful release, or null without one. */
  async latest(actor: Actor): Promise<LatestFirmware> {
    authorize(actor, 'firmware.latest');
    const [newest] = await this.client().successfulReleases();
    return { latestDeviceFirmware: newest ? versionOf(newest) : null };
  }

  /**
   * POST /device/{hashId}/firmware: pins the device's Balena device to the release with the
   * given version, or to the fleet's latest successful release. The allowance, the device's
   * pinned_firmware and the audit entry are written in one transaction that ends with the call
   * to Balena, so a pin Balena refuses leaves nothing behind.
   */
  async pin(actor: Actor, hashId: string, body: FirmwarePin): Promise<DangerousActionResult> {
    authorize(actor, 'device.pinFirmware');
    const semver = body.semver;
    if (semver !== undefined && !isSemver(semver)) {
      throw new GridportError('invalid_version_format', { semver });
    }
    const balena = this.client();
    const device = await this.devices.find(actor, hashId);
    if (!device.balenaUuid) {
      throw new GridportError('no_balena_uuid', { deviceHashId: hashId });
    }
    const releases = await balena.successfulReleases();
    const release = semver === undefined ? releases[0] : releases.find((row) => row.semver === semver || row.raw_version === semver);
    if (!release) {
      throw semver === undefined ? new GridportError('no_releases_found', { fleetId: balena.fleetId }) : new GridportError('semver_not_found', { semver });
    }
    const balenaDevice = await balena.findDevice(device.balenaUuid);
    if (!balenaDevice) {
      throw new GridportError('no_balena_uuid', { deviceHashId: hashId, balenaUuid: device.balenaUuid, reason: 'Balena has no device with this uuid' });
    }
    const pinnedFirmware = versionOf(release);
    return write(this.db, actor, async (w) => {
      const current = await DeviceModel.query(w.trx).findById(device.id).forUpdate();
      if (!current) {
        throw new GridportError('not_found', { deviceHashId: hashId });
      }
      const remainingAllowance = current.inProduction
        ? (await this.dangerousActions.spend(w.trx, actor, Math.round(current.nominalActivePowerSum), 'firmware')).remainingAllowance
        : null;
      await DeviceModel.query(w.trx).findById(current.id).patch({ pinnedFirmware });
      await w.audit({
        objectType: 'devices',
        objectId: current.id,
        organizationId: current.organizationId,
        changeType: 'controllerUpdate',
        // A repeated pin to the same release still leaves an entry (with an empty diff): Balena was asked again.
        diff: diffObjects<DeviceModel>({ pinnedFirmware: 'string' }, current, { pinnedFirmware }),
      });
      await balena.pin(balenaDevice.id, release.id);
      return { remainingAllowance };
    });
  }
}
