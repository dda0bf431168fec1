import type { ReportOf } from '../../../contracts/hub/reports';
import type { ScheduleTarget } from '../../control/schedule';
import { agentErrorCodes, toJson } from '../reporter';
import type { MessageHandlers } from './context';

/** What the cloud asks of one asset or loop: its metadata, its schedule, its parameters. */
export const assetHandlers: Pick<MessageHandlers, 'getMetadata' | 'setAssetSchedule' | 'setAssetParameters'> = {
  getMetadata: async ({ id, message, agent, fail }) => {
    const drivers = agent.runtime()?.drivers ?? [];
    const indices = message.assetIndex === undefined ? drivers.map((_driver, index) => index) : [message.assetIndex];
    if (message.assetIndex !== undefined && !drivers[message.assetIndex]) {
      return fail(agentErrorCodes.unknownAsset, `No asset with a driver at index ${message.assetIndex}.`, message.assetIndex);
    }
    for (const index of indices) {
      const driver = drivers[index];
      if (!driver) {
        continue;
      }
      const metadata = (await driver.metadata()) ?? {};
      await agent.reporter.send({
        type: 'assetMetadata',
        at: agent.reporter.at(),
        asset: index,
        observations: { messageId: id, ...metadataObservations(metadata, driver.config.nominalActivePower) },
      });
    }
    return true;
  },

  setAssetSchedule: async ({ id, message, agent, fail }) => {
    const runtime = agent.runtime();
    if (!runtime) {
      return fail(agentErrorCodes.configNotApplied, 'No config runs.');
    }
    if (message.assetIndex !== undefined) {
      if (!runtime.config.assets[message.assetIndex]) {
        return fail(agentErrorCodes.unknownAsset, `No asset at index ${message.assetIndex}.`);
      }
    } else if (!runtime.loops[message.controlLoopIndex ?? -1]) {
      return fail(agentErrorCodes.unknownControlLoop, `No running control loop at index ${message.controlLoopIndex ?? -1}.`);
    }
    const target: ScheduleTarget = message.assetIndex !== undefined ? { assetIndex: message.assetIndex } : { controlLoopIndex: message.controlLoopIndex ?? -1 };
    runtime.schedule.setSchedule(target, message.schedule, id);
    await agent.schedules.take(target, message.schedule, id);
    agent.log('info', `schedule of ${message.schedule.length} items taken`, { id });
    return true;
  },

  /** Asset parameters (sagerFurnace, demoBattery) to the asset's driver, which says whether it takes them; hedno to a loop. */
  setAssetParameters: async ({ id, message, agent, fail }) => {
    const runtime = agent.runtime();
    const { parameters } = message;
    if (message.assetIndex !== undefined) {
      const driver = runtime?.drivers[message.assetIndex];
      if (!driver) {
        return fail(agentErrorCodes.unknownAsset, `No asset with a driver at index ${message.assetIndex}.`, message.assetIndex);
      }
      if (parameters.type === 'hedno' || !driver.applyParameters || !(await driver.applyParameters(parameters))) {
        return fail(
          agentErrorCodes.unsupportedParameters,
          `Asset ${message.assetIndex} (${driver.config.type}) takes no ${parameters.type} parameters.`,
          message.assetIndex,
        );
      }
      await agent.reporter.send({
        type: 'executedAssetParameters',
        at: agent.reporter.at(),
        asset: message.assetIndex,
        observations: { messageId: id, parameters: toJson(parameters) },
      });
      // Alarms the parameters raised or cleared (a demo battery's codes) follow at once, not at the next reporting interval.
      for (const alarm of driver.drainAlarms?.(new Date(agent.reporter.at())) ?? []) {
        await agent.reporter.send(alarm);
      }
      return true;
    }
    const index = message.controlLoopIndex ?? -1;
    const loop = runtime?.loops[index];
    if (!loop) {
      return fail(agentErrorCodes.unknownControlLoop, `No running control loop at index ${index}.`);
    }
    if (parameters.type !== 'hedno' || !loop.applyParameters || !loop.applyParameters(parameters)) {
      return fail(agentErrorCodes.unsupportedParameters, `Control loop ${index} (${loop.type}) takes no ${parameters.type} parameters.`);
    }
    await agent.reporter.send({
      type: 'executedAssetParameters',
      at: agent.reporter.at(),
      controller: index,
      observations: { messageId: id, parameters: toJson(parameters) },
    });
    return true;
  },
};

const metadataFields = ['manufacturer', 'model', 'serialNumber', 'firmwareVersion', 'hardwareVersion'] as const;

/** A driver's metadata as the assetMetadata report's fields; the rest under details. */
function metadataObservations(
  metadata: Record<string, string | number | null>,
  nominal: number | undefined,
): Omit<ReportOf<'assetMetadata'>['observations'], 'messageId'> {
  const observations: Record<string, unknown> = {};
  const details: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if ((metadataFields as readonly string[]).includes(key)) {
      if (value !== null) {
        observations[key] = String(value).slice(0, 200);
      }
    } else if (key === 'nominalActivePower' && typeof value === 'number') {
      observations.nominalActivePower = value;
    } else {
      details[key] = value;
    }
  }
  if (observations.nominalActivePower === undefined && nominal !== undefined) {
    observations.nominalActivePower = nominal;
  }
  return { ...observations, ...(Object.keys(details).length > 0 ? { details } : {}) } as Omit<ReportOf<'assetMetadata'>['observations'], 'messageId'>;
}
