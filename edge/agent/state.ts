import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDeviceConfig, type DeviceConfig } from '../../contracts/device/config';
import { errorText, type AgentLog } from './journal';

/** Files of the state directory (docs/edge.md). */
export const stateFiles = {
  identity: 'identity',
  config: 'config.json',
  /** The schedules held (setAssetSchedule), so a restart carries on with them: the cloud does not send an acknowledged message again. */
  schedules: 'schedules.json',
  reports: 'reports',
  reprovision: 'reprovision-requested',
} as const;

/** The agent's state directory: the config it runs, the schedules it holds, the reprovisioning marker. */
export class AgentState {
  constructor(
    readonly directory: string,
    private readonly log: AgentLog,
  ) {}

  /** The path of a file of the state directory. */
  file(name: string): string {
    return path.join(this.directory, name);
  }

  async prepare(): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
  }

  /** The config stored by the last setConfig; null without one, or when it is no longer valid. */
  async readConfig(): Promise<DeviceConfig | null> {
    const text = await this.readText(stateFiles.config);
    if (text === null) {
      return null;
    }
    try {
      return parseDeviceConfig(JSON.parse(text));
    } catch (error) {
      this.log('error', 'the stored config is not valid; running the default one', { error: errorText(error) });
      return null;
    }
  }

  async writeConfig(config: DeviceConfig): Promise<void> {
    await this.write(stateFiles.config, config);
  }

  /** The schedules file as it was written; null without one or when it is not JSON. */
  async readSchedules(): Promise<unknown> {
    const text = await this.readText(stateFiles.schedules);
    if (text === null) {
      return null;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return null;
    }
  }

  async writeSchedules(held: unknown): Promise<void> {
    await this.write(stateFiles.schedules, held);
  }

  /** Marks that the cloud asked for reprovisioning: the next start with a token provisions again (run.ts). */
  async markReprovision(at: Date): Promise<void> {
    await writeFile(this.file(stateFiles.reprovision), at.toISOString());
  }

  private async readText(name: string): Promise<string | null> {
    try {
      return await readFile(this.file(name), 'utf8');
    } catch {
      return null;
    }
  }

  /** Writes a file of the state directory whole or not at all. */
  private async write(name: string, value: unknown): Promise<void> {
    const file = this.file(name);
    const temporary = `${file}.${randomUUID()}.tmp`;
    await writeFile(temporary, JSON.stringify(value));
    await rename(temporary, file);
  }
}
