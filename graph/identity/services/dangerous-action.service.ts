import type { Knex } from 'knex';
import { GridportError } from '../../../contracts/errors';
import { limits } from '../../../contracts/limits';
import type { Actor } from '../../common/context';
import { DangerousActionModel } from '../models/dangerous-action.model';

export interface DangerousActionSpent {
  /** Watts left of the user's allowance for the rolling 24 hours, after this action. */
  remainingAllowance: number;
}

/**
 * The dangerous-action allowance (spec README, "Dangerous actions"): schedule and parameter
 * writes, messages, firmware pinning and reboots to devices in production draw on 5,000,000 W
 * of nominal active power per user per rolling 24 hours.
 */
export class DangerousActionService {
  /**
   * Spends `watts` of the acting user's allowance on `action`, inside the caller's transaction
   * so the ledger entry commits or rolls back with the action. Spends of one user are
   * serialised by locking the user's row, so two concurrent spends cannot both pass a check
   * that only one of them fits.
   */
  async spend(trx: Knex.Transaction, actor: Actor, watts: number, action: string): Promise<DangerousActionSpent> {
    if (actor.userId === null) {
      throw new GridportError('dangerous_action_requires_user_id', { action });
    }
    if (!Number.isSafeInteger(watts) || watts < 0) {
      throw new Error(`a dangerous action spends a whole, non-negative number of watts, not ${watts}`);
    }
    const userId = actor.userId;
    const user: unknown = await trx('users').select('id').where('id', userId).forUpdate().first();
    if (!user) {
      throw new GridportError('dangerous_action_requires_user_id', { action, reason: 'the user no longer exists' });
    }
    const remaining = await this.remaining(trx, userId);
    if (watts > remaining) {
      throw new GridportError('rate_limit_exceeded_for_dangerous_actions', { remaining, requested: watts });
    }
    await DangerousActionModel.query(trx).insert({ userId, watts, action });
    return { remainingAllowance: remaining - watts };
  }

  /** What is left of the user's allowance now. */
  async remaining(db: Knex, userId: number): Promise<number> {
    const since = new Date(Date.now() - limits.dangerousActionWindowHours * 60 * 60 * 1000);
    const row = (await DangerousActionModel.query(db).where('user_id', userId).where('created_at', '>', since).sum('watts as spent').first()) as unknown as
      { spent: string | number | null } | undefined;
    return Math.max(0, limits.dangerousActionAllowanceWatts - Number(row?.spent ?? 0));
  }
}
