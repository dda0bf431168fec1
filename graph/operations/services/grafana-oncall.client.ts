import { GridportError } from '../../../contracts/errors';

/**
 * How Gridport reaches Grafana OnCall: GRAFANA_ONCALL_URL (the OnCall API URL, as OnCall's
 * settings show it), GRAFANA_ONCALL_TOKEN (an OnCall API token) and GRAFANA_ONCALL_SCHEDULE
 * (the id of the schedule whose on-call engineer Gridport asks for). Without URL, token and
 * schedule, GET /console-admin/v1/on-call/grafana answers service_unavailable.
 */
export interface GrafanaOnCallSettings {
  url: string | null;
  token: string | null;
  scheduleId: string | null;
  /** How long one call may take; 10 s unless a test says otherwise. */
  timeoutMs?: number;
}

/** A schedule as OnCall's public API gives it (GET /api/v1/schedules/<id>/). */
export interface GrafanaSchedule {
  id: string;
  name: string;
  on_call_now: string[];
}

/** A user as OnCall's public API gives it (GET /api/v1/users/<id>/). */
export interface GrafanaUser {
  id: string;
  email: string;
  username: string;
}

/**
 * A small client of Grafana OnCall's public HTTP API (v1): the schedule, whose `on_call_now`
 * lists the users on call at this moment, and each of those users. The token goes in the
 * Authorization header as OnCall's API expects it. A network failure, a timeout, a refused
 * token, a missing schedule or a 5xx is service_unavailable with the reason.
 */
export class GrafanaOnCallClient {
  private readonly url: string;
  private readonly timeoutMs: number;

  constructor(
    url: string,
    private readonly token: string,
    readonly scheduleId: string,
    timeoutMs = 10_000,
  ) {
    this.url = url.replace(/\/+$/, '');
    this.timeoutMs = timeoutMs;
  }

  /** The client of these settings, or null when one of them is missing. */
  static fromSettings(settings: GrafanaOnCallSettings | undefined): GrafanaOnCallClient | null {
    if (!settings?.url || !settings.token || !settings.scheduleId) {
      return null;
    }
    return new GrafanaOnCallClient(settings.url, settings.token, settings.scheduleId, settings.timeoutMs);
  }

  private async get(path: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.url}${path}`, {
        headers: { authorization: this.token, accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as { name?: unknown } | null)?.name === 'TimeoutError';
      throw new GridportError('service_unavailable', {
        reason: timedOut ? `Grafana OnCall did not answer within ${this.timeoutMs} ms` : 'Grafana OnCall could not be reached',
      });
    }
    const text = await response.text().catch(() => '');
    if (response.status === 401 || response.status === 403) {
      throw new GridportError('service_unavailable', { reason: 'Grafana OnCall refused the token (GRAFANA_ONCALL_TOKEN)' });
    }
    if (response.status === 404) {
      throw new GridportError('service_unavailable', { reason: `Grafana OnCall has no ${path}` });
    }
    if (!response.ok) {
      throw new GridportError('service_unavailable', { reason: `Grafana OnCall answered ${response.status}` });
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new GridportError('service_unavailable', { reason: 'the answer of Grafana OnCall is not JSON' });
    }
  }

  async schedule(): Promise<GrafanaSchedule> {
    const answer = (await this.get(`/api/v1/schedules/${encodeURIComponent(this.scheduleId)}/`)) as Partial<GrafanaSchedule> | null;
    if (!answer || typeof answer.id !== 'string' || !Array.isArray(answer.on_call_now)) {
      throw new GridportError('service_unavailable', { reason: 'the schedule from Grafana OnCall has no on_call_now' });
    }
    return {
      id: answer.id,
      name: typeof answer.name === 'string' ? answer.name : answer.id,
      on_call_now: answer.on_call_now.filter((id) => typeof id === 'string'),
    };
  }

  async user(id: string): Promise<GrafanaUser> {
    const answer = (await this.get(`/api/v1/users/${encodeURIComponent(id)}/`)) as Partial<GrafanaUser> | null;
    if (!answer || typeof answer.email !== 'string') {
      throw new GridportError('service_unavailable', { reason: `the user ${id} from Grafana OnCall has no email` });
    }
    return { id, email: answer.email, username: typeof answer.username === 'string' ? answer.username : answer.email };
  }

  /** The schedule and the users it has on call now, in its order. */
  async onCallNow(): Promise<{ schedule: GrafanaSchedule; users: GrafanaUser[] }> {
    const schedule = await this.schedule();
    const users = await Promise.all(schedule.on_call_now.map((id) => this.user(id)));
    return { schedule, users };
  }
}
