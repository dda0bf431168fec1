import { agentExitCodes } from '../exit-codes';
import type { MessageHandlers } from './context';

/** reboot, forceUpdate, reprovision: acknowledged first, then the agent restarts or exits for its supervisor. */
export const lifecycleHandlers: Pick<MessageHandlers, 'reboot' | 'forceUpdate' | 'reprovision'> = {
  reboot: ({ message, agent }) => {
    agent.afterAnswer(async () => {
      if (message.hard) {
        await agent.exit(agentExitCodes.hardReboot, 'hard reboot asked by the cloud');
      } else {
        await agent.restart();
      }
    });
    return Promise.resolve(true);
  },
  forceUpdate: ({ agent }) => {
    agent.afterAnswer(() => agent.exit(agentExitCodes.forceUpdate, 'update asked by the cloud'));
    return Promise.resolve(true);
  },
  reprovision: async ({ agent }) => {
    await agent.state.markReprovision(new Date(agent.clock.now()));
    agent.afterAnswer(() => agent.exit(agentExitCodes.reprovision, 'reprovisioning asked by the cloud'));
    return true;
  },
};
