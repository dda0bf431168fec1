/** Exit codes the agent asks its supervisor for (docs/edge.md): restart it, update it, or reprovision it. */
export const agentExitCodes = {
  /** reboot with hard: true: the supervisor restarts the process (or the gateway). */
  hardReboot: 75,
  /** forceUpdate: the supervisor installs the newest release, then starts it. */
  forceUpdate: 76,
  /** reprovision: the next start provisions again with the new token it is given. */
  reprovision: 77,
} as const;
