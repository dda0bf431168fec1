import styled, { keyframes } from 'styled-components';

/** The global loading bar at the top of the page. */
export function LoadingBar({ active }: { active: boolean }) {
  if (!active) {
    return null;
  }
  return (
    <Track role="progressbar" aria-label="Loading" aria-busy="true">
      <Runner />
    </Track>
  );
}

const slide = keyframes`
  from { transform: translateX(-100%); }
  to { transform: translateX(250%); }
`;

const Track = styled.div`
  position: fixed;
  top: 0;
  left: 0;
  right: 0;
  height: 3px;
  overflow: hidden;
  z-index: ${({ theme }) => theme.layers.banner};
  background: rgba(31, 79, 214, 0.2);
`;

const Runner = styled.div`
  width: 40%;
  height: 100%;
  background: ${({ theme }) => theme.colors.primary};
  animation: ${slide} 1.1s ease-in-out infinite;
`;
