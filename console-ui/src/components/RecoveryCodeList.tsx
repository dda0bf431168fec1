import styled from 'styled-components';

/** Recovery codes, shown once, in two columns. */
export const RecoveryCodeList = styled.ul`
  columns: 2;
  padding-left: 18px;
  font-family: monospace;
  font-size: 15px;
`;
