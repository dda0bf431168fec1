import type { Knex } from 'knex';
import { GridportError } from '../../../contracts/errors';
import { providerOrganizationId } from '../../../contracts/limits';
import type { GrafanaOnCallView, OnCallOpsUpdate, OnCallOpsView } from '../../../contracts/on-call';
import type { UserReference } from '../../../contracts/references';
import { isStaffRight } from '../../../contracts/rights';
import type { Actor } from '../../common/context';
import { authorize } from '../../common/context';
import type { HashIds } from '../../common/hash-ids';
import { write } from '../../common/write';
import type { IdentityDirectory, DirectoryUser } from '../../identity/services/directory.service';
import type { UserService } from '../../identity/services/user.service';
import { OnCallModel } from '../models/on-call.model';
import { GrafanaOnCallClient, type GrafanaOnCallSettings } from './grafana-oncall.client';

/** The rota of the engineer who answers the phone. */
const opsRota = 'ops';

/**
 * Who is on call (console.md section 7, spec README "Operations"): the on-call ops user that Ops
 * sets in Gridport (the engineer incoming calls are put through to), and who Grafana OnCall's
 * schedule has on call now.
 */
export class OnCallService {
  private readonly grafana: GrafanaOnCallClient | null;

  constructor(
    private readonly db: Knex,
    private readonly hashIds: HashIds,
    private readonly directory: IdentityDirectory,
    private readonly users: UserService,
    grafana?: GrafanaOnCallSettings,
  ) {
    this.grafana = GrafanaOnCallClient.fromSettings(grafana);
  }

  private reference(user: DirectoryUser): UserReference {
    return { hashId: this.hashIds.encode('user', user.id), name: user.name, email: user.email };
  }

  /** The on-call ops user (for Gridport's own use: telephony), or null. */
  async opsUser(db: Knex = this.db): Promise<DirectoryUser | null> {
    const row = await OnCallModel.query(db).findById(opsRota);
    if (!row || row.userId === null) {
      return null;
    }
    return (await this.directory.users(db, [row.userId])).get(row.userId) ?? null;
  }

  async getOps(actor: Actor): Promise<OnCallOpsView> {
    authorize(actor, 'onCall.read');
    const user = await this.opsUser();
    return { user: user ? this.reference(user) : null };
  }

  /**
   * Sets (or with null clears) the on-call ops user: a staff user of the provider organisation.
   * An unknown hash id is not_found; a customer user, or one without a staff right,
   * payload_invalid on userHashId. The change is audited on the user who comes (or goes).
   */
  async setOps(actor: Actor, input: OnCallOpsUpdate): Promise<OnCallOpsView> {
    authorize(actor, 'onCall.update');
    return write(this.db, actor, async (w) => {
      let next: DirectoryUser | null = null;
      if (input.userHashId !== null) {
        const id = this.hashIds.decode('user', input.userHashId);
        next = id === null ? null : ((await this.directory.users(w.trx, [id])).get(id) ?? null);
        if (!next) {
          throw new GridportError('not_found', { userHashId: input.userHashId });
        }
        if (next.organizationId !== providerOrganizationId || !next.rights.some(isStaffRight)) {
          throw new GridportError('payload_invalid', [
            { path: 'userHashId', message: 'the on-call ops user must be a staff user of the provider organisation' },
          ]);
        }
      }
      const current = await OnCallModel.query(w.trx).findById(opsRota).forUpdate();
      const previousId = current?.userId ?? null;
      if (previousId === (next?.id ?? null)) {
        return { user: next ? this.reference(next) : null };
      }
      const row = { userId: next?.id ?? null, updatedByUserId: actor.userId, updatedAt: new Date() };
      if (current) {
        await OnCallModel.query(w.trx).patch(row).where('rota', opsRota);
      } else {
        await OnCallModel.query(w.trx).insert({ rota: opsRota, ...row });
      }
      const subject = next?.id ?? previousId;
      if (subject !== null) {
        await w.audit({
          objectType: 'users',
          objectId: subject,
          organizationId: providerOrganizationId,
          changeType: 'controllerUpdate',
          diff: [
            {
              type: 'link',
              name: 'onCallOps',
              objectType: 'users',
              oldHashId: previousId === null ? null : this.hashIds.encode('user', previousId),
              newHashId: next ? this.hashIds.encode('user', next.id) : null,
            },
          ],
        });
      }
      return { user: next ? this.reference(next) : null };
    });
  }

  /**
   * Who Grafana OnCall's schedule (GRAFANA_ONCALL_SCHEDULE) has on call now, each with the
   * Gridport user of the same email. Without the settings: service_unavailable; a schedule with
   * nobody on call: no_team_members.
   */
  async grafanaOnCall(actor: Actor): Promise<GrafanaOnCallView> {
    authorize(actor, 'onCall.grafana');
    if (!this.grafana) {
      throw new GridportError('service_unavailable', {
        reason: 'Grafana OnCall is not configured (GRAFANA_ONCALL_URL, GRAFANA_ONCALL_TOKEN, GRAFANA_ONCALL_SCHEDULE)',
      });
    }
    const { schedule, users } = await this.grafana.onCallNow();
    if (users.length === 0) {
      throw new GridportError('no_team_members', { scheduleId: schedule.id, reason: 'nobody is on call in the schedule now' });
    }
    const onCall = await Promise.all(
      users.map(async (grafanaUser) => {
        const user = await this.users.findByEmail(grafanaUser.email);
        return {
          grafanaUserId: grafanaUser.id,
          email: grafanaUser.email,
          username: grafanaUser.username,
          user: user ? { hashId: this.hashIds.encode('user', user.id), name: user.name, email: user.email } : null,
        };
      }),
    );
    return { scheduleId: schedule.id, scheduleName: schedule.name, onCall };
  }
}
