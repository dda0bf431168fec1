import * as yup from 'yup';
import { cloudToDeviceMessageSchema } from './device';

/** Limits of the firmware and device-message calls (console.md section 7). */
export const firmwareLimits = {
  /** Longest version string a caller may send. */
  semverLength: 100,
  /** How long a call to Balena may take before it counts as balena_unavailable, in ms. */
  balenaTimeoutMs: 10_000,
} as const;

/**
 * A semantic version as releases carry it: major.minor.patch with an optional pre-release
 * (1.2.3, 1.2.3-rc.1) and build metadata (1.2.3+rev2), by the grammar of semver.org.
 */
const semverPattern =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export function isSemver(text: string): boolean {
  return semverPattern.test(text);
}

/**
 * POST /console-admin/v1/device/{hashId}/firmware: pin the device to the release with this
 * version, or without one to the fleet's latest successful release. The format is checked by
 * the service, which answers invalid_version_format (console.md section 8), not payload_invalid.
 */
export const firmwarePinSchema = yup
  .object({
    semver: yup.string().trim().max(firmwareLimits.semverLength).optional(),
  })
  .exact();
export type FirmwarePin = yup.InferType<typeof firmwarePinSchema>;

/** A dangerous action's answer: the watts left of the user's allowance, or null when the device is not in production. */
export interface DangerousActionResult {
  remainingAllowance: number | null;
}

export const dangerousActionResultSchema = yup.object({
  remainingAllowance: yup.number().nullable().defined(),
});

/** GET /console-admin/v1/latest-firmware: the version of the fleet's newest successful release, if any. */
export interface LatestFirmware {
  latestDeviceFirmware: string | null;
}

export const latestFirmwareSchema = yup.object({
  latestDeviceFirmware: yup.string().nullable().defined(),
});

/** Why setConfig is refused by POST /device/{hashId}/send-message. */
export const setConfigRefusal = 'config changes go through PUT /device/{hashId}';

/**
 * POST /console-admin/v1/device/{hashId}/send-message: one cloud-to-device message
 * (device-model.md section 3.10), checked by the shared message schema; setConfig is refused,
 * since a config is checked and recorded by the device update.
 */
export const sendMessageSchema = yup
  .object({
    message: yup.lazy((value: unknown) =>
      value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'setConfig'
        ? yup.mixed<never>().test('not-set-config', setConfigRefusal, function refuse() {
            return this.createError({ path: `${this.path}.type`, message: setConfigRefusal });
          })
        : cloudToDeviceMessageSchema,
    ),
  })
  .exact();
export type SendMessage = yup.InferType<typeof sendMessageSchema>;

export interface MessageSent extends DangerousActionResult {
  /** The outbox id the device acknowledges the message with. */
  messageId: string;
}

export const messageSentSchema = dangerousActionResultSchema.shape({
  messageId: yup.string().required(),
});
