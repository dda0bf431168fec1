import { GridportError } from '../../../contracts/errors';
import { firmwareLimits } from '../../../contracts/firmware';

/**
 * How Gridport reaches Balena Cloud: BALENA_API_URL, BALENA_API_TOKEN and BALENA_FLEET_ID
 * (docs/operations.md). Without a token (or fleet) every firmware call is no_balena_credentials.
 */
export interface BalenaSettings {
  apiUrl: string;
  apiToken: string | null;
  /** The numeric id of the fleet (Balena's application) the gateways run in. */
  fleetId: number | null;
  /** How long one call may take; 10 s unless a test says otherwise. */
  timeoutMs?: number;
}

/** A device as Balena knows it; `is_running__release` is a reference (`{ __id }`) or null. */
export interface BalenaDevice {
  id: number;
  uuid: string;
  os_version: string | null;
  is_running__release: { __id: number } | null;
}

/** A release of the fleet, as Balena lists it. */
export interface BalenaRelease {
  id: number;
  commit: string;
  semver: string;
  raw_version: string;
  created_at: string;
}

/** OData string literals double their single quotes. */
function odataString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * A small client of Balena Cloud's resource API (OData, v7; docs.balena.io/reference/api):
 * find a device by uuid, list a fleet's successful releases, pin a device to a release and
 * unpin it. A network failure, a timeout or a 5xx is balena_unavailable; a refused token is
 * no_balena_credentials; any other refusal is an internal error (Gridport's request is wrong).
 */
export class BalenaClient {
  private readonly apiUrl: string;
  private readonly timeoutMs: number;

  constructor(
    apiUrl: string,
    private readonly apiToken: string,
    readonly fleetId: number,
    timeoutMs: number = firmwareLimits.balenaTimeoutMs,
  ) {
    this.apiUrl = apiUrl.replace(/\/+$/, '');
    this.timeoutMs = timeoutMs;
  }

  /** The client of these settings, or null when they lack the token or the fleet. */
  static fromSettings(settings: BalenaSettings | undefined): BalenaClient | null {
    if (!settings?.apiToken || settings.fleetId === null) {
      return null;
    }
    return new BalenaClient(settings.apiUrl, settings.apiToken, settings.fleetId, settings.timeoutMs);
  }

  private async call(method: 'GET' | 'PATCH', path: string, query: Record<string, string> = {}, body?: unknown): Promise<unknown> {
    const url = new URL(`${this.apiUrl}${path}`);
    for (const [name, value] of Object.entries(query)) {
      url.searchParams.set(name, value);
    }
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.apiToken}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as { name?: unknown } | null)?.name === 'TimeoutError';
      throw new GridportError('balena_unavailable', { reason: timedOut ? `no answer within ${this.timeoutMs} ms` : 'Balena could not be reached' });
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      throw new GridportError('balena_unavailable', { reason: 'the answer was cut off' });
    }
    if (response.status >= 500) {
      throw new GridportError('balena_unavailable', { status: response.status });
    }
    if (response.status === 401) {
      throw new GridportError('no_balena_credentials', { reason: 'Balena refused the token' });
    }
    if (!response.ok) {
      throw new Error(`Balena answered ${method} ${path} with ${response.status}: ${text.slice(0, 200)}`);
    }
    if (text === '' || text === 'OK') {
      return null;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new GridportError('balena_unavailable', { reason: 'the answer is not JSON' });
    }
  }

  /** The rows (`d`) of an OData collection answer. */
  private async collection<T>(path: string, query: Record<string, string>): Promise<T[]> {
    const answer = (await this.call('GET', path, query)) as { d?: unknown } | null;
    if (!answer || !Array.isArray(answer.d)) {
      throw new GridportError('balena_unavailable', { reason: 'the answer has no result list' });
    }
    return answer.d as T[];
  }

  /** The device with this uuid, or null when Balena has none. */
  async findDevice(uuid: string): Promise<BalenaDevice | null> {
    const rows = await this.collection<BalenaDevice>('/v7/device', {
      $filter: `uuid eq ${odataString(uuid)}`,
      $select: 'id,uuid,os_version,is_running__release',
    });
    return rows[0] ?? null;
  }

  /** The fleet's successfully built releases, newest first. */
  async successfulReleases(): Promise<BalenaRelease[]> {
    return this.collection<BalenaRelease>('/v7/release', {
      $filter: `belongs_to__application eq ${this.fleetId} and status eq 'success' and is_invalidated eq false`,
      $select: 'id,commit,semver,raw_version,created_at',
      $orderby: 'created_at desc',
    });
  }

  /** Pins the device (Balena's numeric id) to the release, or with null lets it track the fleet again. */
  async pin(deviceId: number, releaseId: number | null): Promise<void> {
    await this.call('PATCH', `/v7/device(${deviceId})`, {}, { is_pinned_on__release: releaseId });
  }

  async unpin(deviceId: number): Promise<void> {
    await this.pin(deviceId, null);
  }
}
