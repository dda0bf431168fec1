import styled from 'styled-components';

/** The online/offline mark of a device row. */
export function OnlineState({ online, onlineText, offlineText }: { online: boolean; onlineText: string; offlineText: string }) {
  return <State $online={online}>{online ? onlineText : offlineText}</State>;
}

const State = styled.span<{ $online: boolean }>`
  font-weight: ${({ theme }) => theme.fontWeights.medium};
  color: ${({ theme, $online }) => ($online ? theme.colors.success : theme.colors.textMuted)};
`;
