import type { ReactNode } from 'react';
import { ObjectFrame, type ObjectTab } from '../components/ObjectFrame';
import { useMessages } from '../i18n/messages';
import { OnlineState } from './OnlineState';

export { Panel } from '../components/ObjectFrame';

export type DeviceTab = ObjectTab;

export interface DeviceFrameProps {
  name: string;
  identifier: string;
  online: boolean;
  tabs: readonly DeviceTab[];
  children: ReactNode;
}

/** A device's screen in either area: its name, identifier and state, the tabs, the tab shown. */
export function DeviceFrame({ name, identifier, online, tabs, children }: DeviceFrameProps) {
  const t = useMessages();
  return (
    <ObjectFrame
      title={name === '' ? identifier : name}
      aside={<OnlineState online={online} onlineText={t('device.online')} offlineText={t('device.offline')} />}
      subtitle={<span data-testid="device-identifier">{identifier}</span>}
      tabs={tabs}
    >
      {children}
    </ObjectFrame>
  );
}
