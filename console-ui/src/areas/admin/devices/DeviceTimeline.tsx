import { useState } from 'react';
import styled from 'styled-components';
import { useMessages } from '../../../i18n/messages';
import { useDeviceReports, type DeviceReport } from '../../../devices/useDeviceReports';

/** How many reports the timeline keeps: the newest, so a page left open stays light. */
export const timelineLimit = 200;

/** Where a report is from: an asset, a control loop or the device. */
function subjectOf(report: DeviceReport): string {
  if (report.assetIndex !== null) {
    return `asset ${report.assetIndex}`;
  }
  if (report.controllerIndex !== null) {
    return `controller ${report.controllerIndex}`;
  }
  return 'device';
}

/** The device's reports as they arrive (graphql-ws), newest first, the newest `limit` kept. */
export function DeviceTimeline({ hashId, limit = timelineLimit }: { hashId: string; limit?: number }) {
  const t = useMessages();
  const [reports, setReports] = useState<readonly DeviceReport[]>([]);
  useDeviceReports(hashId, (report) => setReports((current) => [report, ...current].slice(0, limit)));
  return (
    <div>
      <Note>{reports.length === 0 ? t('device.timeline.waiting') : t('device.timeline.kept', { count: limit })}</Note>
      <List aria-label={t('device.timeline.title')}>
        {reports.map((report) => (
          <Item key={`${report.reportId}-${report.at}-${report.type}`} data-testid="timeline-item">
            <Line>
              <Type>{report.type}</Type>
              <span>{subjectOf(report)}</span>
              <time dateTime={report.at}>{new Date(report.at).toLocaleString()}</time>
            </Line>
            <Body>{JSON.stringify(report.body)}</Body>
          </Item>
        ))}
      </List>
    </div>
  );
}

const Note = styled.p`
  color: ${({ theme }) => theme.colors.textMuted};
  margin: 0 0 8px;
`;

const List = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
`;

const Item = styled.li`
  padding: 8px 0;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const Line = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  time {
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const Type = styled.strong`
  font-weight: ${({ theme }) => theme.fontWeights.semibold};
`;

const Body = styled.code`
  display: block;
  margin-top: 4px;
  font-size: 12px;
  overflow-wrap: anywhere;
  color: ${({ theme }) => theme.colors.textMuted};
`;
