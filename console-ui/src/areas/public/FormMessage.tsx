import type { ReactNode } from 'react';
import styled from 'styled-components';
import type { Tone } from '../../theme/theme';

/** A message inside a form before sign-in (a refused sign-in, a sent link). */
export function FormMessage({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <Message role={tone === 'error' ? 'alert' : 'status'} $tone={tone}>
      {children}
    </Message>
  );
}

const Message = styled.p<{ $tone: Tone }>`
  margin: 0 0 14px;
  padding: 10px 12px;
  border-radius: 6px;
  border-left: 4px solid ${({ theme, $tone }) => theme.colors[$tone]};
  background: ${({ theme }) => theme.colors.background};
`;
